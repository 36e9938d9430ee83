import Foundation
import TestSupport
import Testing

@testable import Outline

/// The HTML that OPML's `text` and `_note` hold (Workflowy writes its formatting there) read as Markdown, and
/// Burrow's own titles written so that nothing in them is read as markup.
@Suite struct OPMLMarkupTests {
    /// An export in the shape Workflowy gives (its head holds only the owner's address; markup XML-escaped
    /// inside the attributes; a `<` typed as text escaped twice).
    static let workflowyExport = """
        <?xml version="1.0"?>
        <opml version="2.0">
          <head>
            <ownerEmail>
              someone@example.org
            </ownerEmail>
          </head>
          <body>
            <outline text="&lt;b&gt;Projects&lt;/b&gt;">
              <outline text="Ship the &lt;i&gt;new&lt;/i&gt; site: &lt;a href=&quot;https://example.org/a?x=1&amp;amp;y=2&quot;&gt;staging&lt;/a&gt;" />
              <outline text="see &lt;a href=&quot;https://example.org&quot;&gt;https://example.org&lt;/a&gt; first" />
              <outline text="if a &amp;lt; b &amp;amp; c &amp;gt; d, Q&amp;A says &amp;quot;yes&amp;quot;" />
              <outline text="&lt;b&gt;&lt;i&gt;both &lt;/i&gt;&lt;/b&gt;then &lt;s&gt;gone&lt;/s&gt;, &lt;u&gt;under&lt;/u&gt; and &lt;mark class=&quot;colored bc-yellow&quot;&gt;lit&lt;/mark&gt;" />
              <outline text="run &lt;code&gt;make `all`&lt;/code&gt;" />
              <outline text="due &lt;time startYear=&quot;2026&quot; startMonth=&quot;7&quot; startDay=&quot;8&quot;&gt;Wed, Jul 8, 2026&lt;/time&gt;" />
              <outline text="ask &lt;mention id=&quot;2544228&quot; by=&quot;1&quot; ts=&quot;2&quot;&gt; &lt;/mention&gt; #work" />
              <outline _complete="true" text="with a note" _note="line one &lt;a href=&quot;https://example.org/n&quot;&gt;docs&lt;/a&gt;&#10;line two&#10;" />
            </outline>
          </body>
        </opml>
        """

    @Test func workflowysMarkupIsReadAsMarkdown() throws {
        let nodes = try OPML.read(Self.workflowyExport)
        #expect(try OPML.read(bytes: Array(Self.workflowyExport.utf8)) == nodes)
        #expect(nodes.map(\.title) == ["**Projects**"])
        #expect(
            nodes[0].children.map(\.title) == [
                "Ship the *new* site: [staging](https://example.org/a?x=1&y=2)",
                "see https://example.org first",
                "if a < b & c > d, Q&A says \"yes\"",
                "***both*** then ~~gone~~, under and lit",
                "run `` make `all` ``",
                "due Wed, Jul 8, 2026",
                "ask @2544228 #work",
                "with a note"
            ])
        #expect(nodes[0].children[7].note == "line one [docs](https://example.org/n)\nline two\n")
        #expect(nodes[0].children[7].isDone)
    }

    @Test(
        arguments: [
            // Not markup: a '<' that starts no tag, tags Workflowy does not write, entities HTML has but
            // Workflowy does not use, a bare '&'.
            ("a < b and 3<4", "a < b and 3<4"),
            ("<p>para</p> <foo bar>", "<p>para</p> <foo bar>"),
            ("&copy; &unknown; & &#; &#x; &#12", "&copy; &unknown; & &#; &#x; &#12"),
            // A tag never closed, an end tag never opened, tags crossed: the text stays.
            ("<b>open", "<b>open"),
            ("closed</b> here", "closed</b> here"),
            ("<b>x <i>y</b> z</i>", "**x <i>y** z</i>"),
            // White space inside emphasis is put outside it; empty emphasis is dropped.
            ("<b> padded </b>", " **padded** "),
            ("<i></i>x<b>  </b>", "x  "),
            // Links: a label equal to the address, an address needing <…>, brackets in the label, no href.
            ("<a href='https://x.org'>https://x.org</a>", "https://x.org"),
            ("<a href=\"https://x.org/a b(c)\">it</a>", "[it](<https://x.org/a b(c)>)"),
            ("<a href=https://x.org>[1] ref</a>", "[\\[1\\] ref](https://x.org)"),
            ("<a name=\"top\">anchor</a>", "anchor"),
            ("<A HREF=\"https://x.org\">caps</A>", "[caps](https://x.org)"),
            // Character references: decoded, but never to control characters.
            ("caf&#233; &#x1F600; &nbsp;|", "café 😀 \u{A0}|"),
            ("&#27;[31m &#0; &#x9F;", "&#27;[31m &#0; &#x9F;"),
            // Line breaks; a self-closed element; a date with an hour and no text.
            ("one<br>two<br/>three", "one\ntwo\nthree"),
            ("<b/>x", "x"),
            ("<time startYear=\"2024\" startMonth=\"2\" startDay=\"3\" startHour=\"13\"></time>", "2024-02-03 13:00"),
            // A code span holding its own backticks and spaces.
            ("<code> x </code>", "`  x  `"),
            ("<code>a``b</code>", "```a``b```")
        ])
    func edgeCases(html: String, markdown: String) {
        #expect(OPMLMarkup.markdown(fromHTML: html) == markdown)
    }

    /// Hostile titles are read in one pass: tags never finished, a quarter of a million never closed,
    /// closing tags with nothing to close. Each stays the text it is (this once took time with the square
    /// of the size: 10¹¹ steps for a megabyte).
    @Test func hostileMarkupIsTextAndLinear() {
        let unfinished = String(repeating: "<a x=", count: 50_000)
        #expect(OPMLMarkup.markdown(fromHTML: unfinished) == unfinished)
        let unclosed = String(repeating: "<b>", count: 250_000) + "x"
        #expect(OPMLMarkup.markdown(fromHTML: unclosed) == unclosed)
        let crossed = String(repeating: "<b>", count: 50_000) + String(repeating: "</i>", count: 50_000)
        #expect(OPMLMarkup.markdown(fromHTML: crossed) == crossed)
        let quoted = "<a href=\"" + String(repeating: "<", count: 100_000)
        #expect(OPMLMarkup.markdown(fromHTML: quoted) == quoted)
        // Deep real markup still reads to its limit.
        let deep = String(repeating: "<i>", count: 200) + "x" + String(repeating: "</i>", count: 200)
        #expect(OPMLMarkup.markdown(fromHTML: deep) == String(repeating: "*", count: 200) + "x" + String(repeating: "*", count: 200))
    }

    /// Whatever a title holds (markup, entities, brackets) comes back from Burrow's own OPML as it was:
    /// the writer escapes what the reader would read as HTML.
    @Test func anyTitleRoundTrips() throws {
        let pieces = [
            "<", ">", "&", ";", "#", "x", "b", "/", "<b>", "</b>", "<a href=\"u\">", "</a>", "&amp;", "&lt;", "&#10;",
            "&#x41;", "&nbsp;", " ", "\"", "'", "\n", "\t", "é", "👩‍👩‍👧", "\u{1B}", "<br>", "**", "`"
        ]
        var generator = SeededRandom(seed: 42)
        var markupLooking = 0
        for _ in 0..<500 {
            var nodes: [OutlineNode] = []
            for _ in 0..<8 {
                let title = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
                let note =
                    Bool.random(using: &generator)
                    ? (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined() : nil
                if OPMLMarkup.markdown(fromHTML: title) != title { markupLooking += 1 }
                nodes.append(OutlineNode(title, note: note, isDone: Bool.random(using: &generator)))
            }
            let text = OPML.write(nodes, title: "t")
            #expect(try OPML.read(text) == nodes, "\(text)")
        }
        // The dangerous case: titles that the reader would take as markup if the writer did not escape them.
        print("OPML round trip: \(markupLooking) of 4,000 titles would read differently as HTML")
        #expect(markupLooking > 1_000)
    }
}
