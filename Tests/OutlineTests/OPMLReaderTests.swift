import Foundation
import Testing

@testable import Outline

/// The OPML reader on what real files hold, and on broken ones: every case is read both as text and as bytes.
private func n(_ title: String, note: String? = nil, done: Bool = false, _ children: OutlineNode...) -> OutlineNode {
    OutlineNode(title, note: note, isDone: done, children: children)
}

/// The UTF-8 of `before`, then `raw` bytes, then the UTF-8 of `after`.
private func bytes(_ before: String, _ raw: [UInt8], _ after: String = "") -> [UInt8] {
    Array(before.utf8) + raw + Array(after.utf8)
}

@Suite struct OPMLReaderTests {
    /// A document with `body` as the body's content.
    static func doc(_ body: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\"><head><title>t</title></head><body>\n" + body
            + "\n</body></opml>\n"
    }

    static func readBoth(_ text: String) throws -> [OutlineNode] {
        let fromText = try OPML.read(text)
        #expect(try OPML.read(bytes: Array(text.utf8)) == fromText, "bytes and text disagree")
        return fromText
    }

    // MARK: - What real files hold

    @Test(
        arguments: [
            // The declaration: quotes, encoding names, standalone; none at all; blank lines before it.
            ("<?xml version='1.0' encoding='utf-8' standalone='yes'?><opml><body><outline text='a'/></body></opml>", [n("a")]),
            ("<?xml version=\"1.0\" encoding=\"US-ASCII\"?>\n<opml><body><outline text=\"a\"/></body></opml>", [n("a")]),
            ("<?xml version=\"1.1\"?><opml><body><outline text=\"a\"/></body></opml>", [n("a")]),
            ("<opml><body><outline text=\"a\"/></body></opml>", [n("a")]),
            ("\n\n<?xml version=\"1.0\"?>\n<opml><body><outline text=\"a\"/></body></opml>", [n("a")]),
            ("\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?><opml><body><outline text=\"a\"/></body></opml>", [n("a")]),
            // Comments, processing instructions and a DOCTYPE (with an internal subset) anywhere they may be.
            (
                "<?xml version=\"1.0\"?>\n<!-- exported -->\n<?xml-stylesheet type=\"text/xsl\" href=\"o.xsl\"?>\n"
                    + "<!DOCTYPE opml [ <!ENTITY x \"a > b\"> <!-- ] > --> <!ELEMENT opml ANY> ]>\n"
                    + "<opml><!-- c --><head><?pi x?></head><body><!-- <outline text=\"not me\"/> -->\n"
                    + "<outline text=\"a\"><!-- inside --><?pi inside?></outline></body></opml>\n<!-- after -->\n<?after?>\n", [n("a")]
            ),
            ("<!DOCTYPE opml SYSTEM \"http://x/o>p.dtd\"><opml><body><outline text=\"a\"/></body></opml>", [n("a")]),
            // CDATA and text in elements are skipped, even when they look like outlines.
            (
                "<opml><head><title><![CDATA[a <b> & c]]></title></head><body>text\n"
                    + "<outline text=\"a\"><![CDATA[<outline text=\"no\"/>]]>more &amp; text</outline></body></opml>", [n("a")]
            ),
            // The five entities, decimal and hex references, in attributes; references are not normalised.
            (
                doc("<outline text=\"&lt;&gt;&amp;&apos;&quot;\" _note=\"caf&#233; caf&#xE9; &#x1F600; a&#10;b&#9;c&#13;\"/>"),
                [n("<>&'\"", note: "café café 😀 a\nb\tc\r")]
            ),
            // Raw tabs and line breaks in attributes are normalised to spaces (CR LF is one).
            (doc("<outline text=\"a\tb\nc\r\nd\re\"/>"), [n("a b c d e")]),
            // Attributes in any order, single or double quotes, white space around '='; unknown ones ignored.
            (
                doc("<outline _complete=\"true\" type='link' url=\"http://x/?a=1&amp;b=2\" _note = 'n' \n\t text\n=\n\"t\"/>"),
                [n("t", note: "n", done: true)]
            ),
            (doc("<outline text='say \"hi\"' _note=\"it's\"/>"), [n("say \"hi\"", note: "it's")]),
            // `title` when `text` is absent; `text` wins when both are there; no title at all is an empty one.
            (doc("<outline title=\"T\"/><outline title=\"T\" text=\"x\"/><outline/>"), [n("T"), n("x"), n("")]),
            // _complete as the outliners write it; anything but "true" is not done.
            (
                doc("<outline text=\"a\" _complete=\"TRUE\"/><outline text=\"b\" _complete=\"false\"/><outline text=\"c\" _complete=\"\"/>"),
                [n("a", done: true), n("b"), n("c")]
            ),
            // Self-closing and open/close elements, white space in end tags, nesting.
            (doc("<outline text=\"a\"></outline ><outline text=\"b\" ><outline text=\"c\" /></outline\n>"), [n("a"), n("b", n("c"))]),
            // Head and other elements are ignored; outlines inside other elements of the body still count.
            (
                "<opml version=\"2.0\" xmlns:x=\"urn:x\"><head><title>t</title><expansionState>1,2</expansionState>"
                    + "<ownerName>me</ownerName></head><body><x:wrapper><outline text=\"a\"><x:meta v=\"1\"/>"
                    + "<outline text=\"b\"/></outline></x:wrapper></body></opml>", [n("a", n("b"))]
            ),
            // Unicode in names and values; an empty body; an empty root.
            (doc("<outline text=\"漢字 · naïve · 👩‍👩‍👧\" données=\"é\"/>"), [n("漢字 · naïve · 👩‍👩‍👧")]),
            (doc(""), []),
            ("<opml/>", [])
        ] as [(String, [OutlineNode])])
    func realFiles(text: String, expected: [OutlineNode]) throws {
        #expect(try Self.readBoth(text) == expected)
    }

    /// Workflowy, Dynalist and OmniOutliner exports, as they write them.
    @Test func outlinerExports() throws {
        let workflowy = """
            <?xml version="1.0"?>
            <opml version="2.0">
              <head>
                <ownerEmail>
                  someone@example.com
                </ownerEmail>
              </head>
              <body>
                <outline text="Projects" >
                  <outline text="Write &amp; ship" _note="first line&#10;second line" />
                  <outline text="Done thing" _complete="true" />
                </outline>
              </body>
            </opml>
            """
        #expect(
            try Self.readBoth(workflowy) == [
                n("Projects", n("Write & ship", note: "first line\nsecond line"), n("Done thing", done: true))
            ])
        let dynalist =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><opml version=\"2.0\"><head><title>Inbox</title>"
            + "<flavor>dynalist</flavor></head><body><outline text=\"**bold** item\" _note=\"\" checkbox=\"true\" "
            + "complete=\"true\" _complete=\"true\" color=\"2\"></outline></body></opml>"
        #expect(try Self.readBoth(dynalist) == [n("**bold** item", note: "", done: true)])
    }

    /// OmniOutliner marks a checked row with `_status="checked"`, not `_complete`; "unchecked" and
    /// "indeterminate" (a parent with some children checked) are not done; either attribute saying done is done.
    @Test func omniOutlinerStatus() throws {
        let omni = """
            <?xml version="1.0" encoding="utf-8" standalone="no"?>
            <opml version="2.0">
              <head>
                <title>Plans</title>
                <expansionState>0,1</expansionState>
              </head>
              <body>
                <outline text="Trip" _status="indeterminate" Due="2026-05-01">
                  <outline text="Book flights" _status="checked" _note="seat 12A"/>
                  <outline text="Pack" _status="unchecked"/>
                  <outline text="Visa" _status="Checked"/>
                  <outline text="Both" _status="unchecked" _complete="true"/>
                  <outline text="Neither" _status="" _complete="false"/>
                </outline>
              </body>
            </opml>
            """
        #expect(
            try Self.readBoth(omni) == [
                n(
                    "Trip", n("Book flights", note: "seat 12A", done: true), n("Pack"), n("Visa", done: true), n("Both", done: true),
                    n("Neither"))
            ])
        // The attribute is counted like any other: twice is not well-formed.
        #expect(throws: InterchangeError.self) { try OPML.read(Self.doc("<outline text=\"a\" _status=\"checked\" _status=\"x\"/>")) }
    }

    @Test func latin1IsTranscodedFromBytes() throws {
        let latin1 = bytes(
            "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<opml><body><outline text=\"caf", [0xE9, 0x20, 0xA9], "\"/></body></opml>")
        #expect(try OPML.read(bytes: latin1) == [n("café ©")])
        #expect(try OPML.read(bytes: Data(latin1)) == [n("café ©")])
    }

    /// Text is decoded already: the encoding its declaration names is not the reader's business.
    @Test func textIgnoresTheDeclaredEncoding() throws {
        #expect(try OPML.read("<?xml version=\"1.0\" encoding=\"windows-1252\"?><opml><body><outline text=\"é\"/></body></opml>") == [n("é")])
    }

    // MARK: - Broken files

    @Test(
        arguments: [
            // Nesting.
            (
                "<opml><body>\n<outline text=\"a\">\n</body></opml>",
                "OPML line 3, column 1: </body> does not close what is open (expected </outline> for the <outline> of line 2)"
            ),
            ("<opml><body>\n  <outline text=\"a\">\n", "OPML line 3, column 1: <outline> opened on line 2 is never closed"),
            ("<opml><body></body></opml>\n</opml>", "OPML line 2, column 1: </opml> does not close what is open (expected nothing)"),
            ("<opml><head><outline text=\"a\"/></head></opml>", "OPML line 1, column 13: an <outline> outside <body>"),
            ("<opml/>\n<opml/>", "OPML line 2, column 1: a second root element <opml> (a file holds one <opml>)"),
            ("", "OPML line 1, column 1: no <opml> element"),
            ("<!-- nothing -->\n", "OPML line 1, column 1: no <opml> element"),
            ("<rss><body/></rss>", "OPML line 1, column 1: no <opml> element (the root element is <rss>)"),
            ("hello <opml/>", "OPML line 1, column 1: text before the root element"),
            ("<opml/>\nbye", "OPML line 2, column 1: text after the root element"),
            // Tags and attributes.
            ("<opml><body><outline text=\"a\" text=\"b\"/></body></opml>", "OPML line 1, column 31: attribute text appears twice in <outline>"),
            ("<opml><body><outline text=a/></body></opml>", "OPML line 1, column 27: expected the value of attribute text in quotes"),
            ("<opml><body><outline text \"a\"/></body></opml>", "OPML line 1, column 27: expected '=' after attribute text"),
            ("<opml><body><outline text=\"a\"_note=\"b\"/></body></opml>", "OPML line 1, column 30: expected a space, '>' or '/>' in <outline>"),
            ("<opml><body><outline text=\"a\" / ></body></opml>", "OPML line 1, column 31: expected '>' after '/' in <outline>"),
            ("<opml><body><outline text=\"a<b\"/></body></opml>", "OPML line 1, column 29: '<' in an attribute value (write &lt;)"),
            ("<opml><body><outline text=\"a/>\n", "OPML line 1, column 27: an attribute value that is never closed"),
            ("<opml><body><outline text=\"a\"", "OPML line 1, column 13: the file ends inside the tag <outline>"),
            ("<opml><body>< outline/></body></opml>", "OPML line 1, column 14: expected an element name after '<', found a space"),
            ("<opml><body></ body></opml>", "OPML line 1, column 15: expected an element name after '</', found a space"),
            ("<opml><body></body ></opml", "OPML line 1, column 27: expected '>' to end </opml>"),
            // References.
            (
                "<opml><body>\n<outline text=\"&nbsp;\"/></body></opml>",
                "OPML line 2, column 16: unknown entity &nbsp; (XML predefines only &lt; &gt; &amp; &apos; &quot;; write other characters as &#NUMBER;)"
            ),
            (
                "<opml><body>\n<outline text=\"AT&T\"/></body></opml>",
                "OPML line 2, column 18: '&' starts no reference (write &amp; for an ampersand)"
            ),
            ("<opml><body>\n<outline text=\"a &amp b\"/></body></opml>", "OPML line 2, column 18: '&' starts no reference"),
            ("<opml><body>\n<outline text=\"&#0;\"/></body></opml>", "OPML line 2, column 16: &#0; is not a character XML allows"),
            ("<opml><body>\n<outline text=\"&#xD800;\"/></body></opml>", "OPML line 2, column 16: &#xD800; is not a character XML allows"),
            ("<opml><body>\n<outline text=\"&#x110000;\"/></body></opml>", "OPML line 2, column 16: &#x110000; is not a character XML allows"),
            (
                "<opml><body>\n<outline text=\"&#99999999999999999999;\"/></body></opml>",
                "OPML line 2, column 16: &#99999999999999999999; is not a character"
            ),
            ("<opml><body>\n<outline text=\"&#xFFFE;\"/></body></opml>", "OPML line 2, column 16: &#xFFFE; is not a character XML allows"),
            ("<opml><body>\n<outline text=\"&#;\"/></body></opml>", "OPML line 2, column 16: a character reference is &#DIGITS; or &#xHEX;"),
            ("<opml><body>\n<outline text=\"&#xG1;\"/></body></opml>", "OPML line 2, column 16: a character reference is &#DIGITS; or &#xHEX;"),
            ("<opml><body>\n<outline text=\"&#X41;\"/></body></opml>", "OPML line 2, column 16: a character reference is &#DIGITS; or &#xHEX;"),
            ("<opml><body>&bogus;</body></opml>", "OPML line 1, column 13: unknown entity &bogus;"),
            // Columns count characters, not bytes.
            ("<opml><body>\n<outline text=\"漢字 👩‍👩‍👧\" _note=\"&x;\"/></body></opml>", "OPML line 2, column 29: unknown entity &x;"),
            // CR LF and lone CR end lines too.
            ("<opml>\r\n<body>\r<outline text=\"&x;\"/></body></opml>", "OPML line 3, column 16: unknown entity &x;"),
            // Characters XML cannot hold.
            ("<opml><body><outline text=\"a\u{01}\"/></body></opml>", "OPML line 1, column 29: character U+0001 is not allowed in XML"),
            ("<opml><body>\u{1B}</body></opml>", "OPML line 1, column 13: character U+001B is not allowed in XML"),
            ("<opml><body><outline text=\"\u{FFFF}\"/></body></opml>", "OPML line 1, column 28: character U+FFFF is not allowed in XML"),
            // Constructs never closed, or out of place.
            ("<opml><body><!-- open\n\n</body></opml>", "OPML line 1, column 13: a comment that is never closed (no '-->')"),
            ("<opml><body><![CDATA[ open</body></opml>", "OPML line 1, column 13: a CDATA section that is never closed (no ']]>')"),
            ("<opml><body><?pi open</body></opml>", "OPML line 1, column 13: a processing instruction that is never closed (no '?>')"),
            ("<!DOCTYPE opml [ <!ENTITY x \"y\"> \n", "OPML line 1, column 1: a <!DOCTYPE that is never closed"),
            ("<![CDATA[x]]><opml/>", "OPML line 1, column 1: a CDATA section outside the root element"),
            ("<opml/><!DOCTYPE opml>", "OPML line 1, column 8: a <!DOCTYPE after the root element"),
            ("<!DOCTYPE opml><!DOCTYPE opml><opml/>", "OPML line 1, column 16: a second <!DOCTYPE"),
            ("<opml><body><!ELEMENT x ANY></body></opml>", "OPML line 1, column 13: '<!' that starts no comment, CDATA section or DOCTYPE"),
            ("<opml><body><", "OPML line 1, column 13: the file ends inside a tag"),
            // The declaration.
            ("<!-- first -->\n<?xml version=\"1.0\"?><opml/>", "OPML line 2, column 1: an XML declaration is allowed only at the start of the file"),
            ("<?xml encoding=\"UTF-8\"?><opml/>", "OPML line 1, column 7: unexpected encoding in the XML declaration"),
            ("<?xml?><opml/>", "OPML line 1, column 1: an XML declaration without its version"),
            ("<?xml version=\"2.0\"?><opml/>", "OPML line 1, column 16: XML version \"2.0\" is not one this reader knows (1.0 is)"),
            ("<?xml version=\"1.0\" standalone=\"maybe\"?><opml/>", "OPML line 1, column 33: standalone is \"yes\" or \"no\", not \"maybe\""),
            ("<?xml version=\"1.0\" encoding=\"\"?><opml/>", "OPML line 1, column 31: \"\" is not an encoding name"),
            (
                "<?xml version=\"1.0\"encoding=\"UTF-8\"?><opml/>",
                "OPML line 1, column 20: expected a space or '?>' in the XML declaration, found 'e'"
            ),
            ("<?xml version=\"1.0\"\n<opml/>", "OPML line 2, column 1: expected version, encoding or standalone in the XML declaration, found '<'")
        ] as [(String, String)])
    func brokenFiles(text: String, message: String) {
        for bytes in [false, true] {
            do {
                _ = try bytes ? OPML.read(bytes: Array(text.utf8)) : OPML.read(text)
                Issue.record("read a broken file (\(bytes ? "bytes" : "text")): \(text)")
            } catch {
                #expect(error.description.hasPrefix(message), "\(bytes ? "bytes" : "text"): \(error.description)")
            }
        }
    }

    /// Only bytes can be other than UTF-8, or declare what they are.
    @Test(
        arguments: [
            (
                bytes("<opml><body>\n<outline text=\"caf", [0xE9], "\"/></body></opml>"),
                "OPML line 2, column 19: not UTF-8 (byte 0xE9); convert the file to UTF-8"
            ),
            (bytes("<opml><body>\n<outline text=\"a\"/>", [0xC0, 0xAF], "</body></opml>"), "OPML line 2, column 20: not UTF-8 (byte 0xC0)"),
            (bytes("<opml><body><!-- ", [0xED, 0xA0, 0x80], " --></body></opml>"), "OPML line 1, column 18: not UTF-8 (byte 0xED)"),
            (bytes("<opml><body><outline text=\"", [0xF4, 0x90, 0x80, 0x80], "\"/></body></opml>"), "OPML line 1, column 28: not UTF-8 (byte 0xF4)"),
            (bytes("<opml><body><outline text=\"", [0xE2, 0x82], "\"/></body></opml>"), "OPML line 1, column 28: not UTF-8 (byte 0xE2)"),
            (
                bytes("<?xml version=\"1.0\" encoding=\"ISO-8859-2\"?><opml/>", []),
                "OPML line 1, column 31: encoding ISO-8859-2 is not supported: convert the file to UTF-8 and declare encoding=\"UTF-8\""
            ),
            (bytes("<?xml version=\"1.0\" encoding=\"windows-1252\"?><opml/>", []), "OPML line 1, column 31: encoding windows-1252 is not supported"),
            (
                bytes("", [0xEF, 0xBB, 0xBF], "<?xml version=\"1.0\" encoding=\"latin1\"?><opml/>"),
                "OPML line 1, column 31: the file starts with a UTF-8 byte-order mark but declares encoding latin1"
            ),
            (bytes("", [0xFF, 0xFE], "<\0o\0"), "OPML line 1, column 1: the file is UTF-16 or UTF-32; convert it to UTF-8"),
            (bytes("<\0?\0x\0", []), "OPML line 1, column 1: the file is UTF-16 or UTF-32"),
            // Positions after a byte-order mark count from the first character after it.
            (bytes("", [0xEF, 0xBB, 0xBF], "<opml><body>&x;</body></opml>"), "OPML line 1, column 13: unknown entity &x;")
        ] as [([UInt8], String)])
    func brokenBytes(input: [UInt8], message: String) {
        do {
            _ = try OPML.read(bytes: input)
            Issue.record("read broken bytes")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }

    // MARK: - Size

    /// One start tag with many attributes: a 2.2 MB tag of 200,000 is read, or refused for a duplicate at its
    /// end. How long that takes is the benchmark's (`BurrowBenchmarks hostile`, beside a plain file of the same
    /// size): the duplicate check once compared each name with all before it, and 40,000 attributes took
    /// 127 s. A clock here failed CI on a loaded machine (1.06 s against a bound of one), so none is read.
    @Test(arguments: [40_000, 200_000])
    func manyAttributes(count: Int) throws {
        let tag = Self.tagWithManyAttributes(count)
        let good = Array(Self.doc(tag + "/>").utf8)
        #expect(try OPML.read(bytes: good) == [n("many")])
        let bad = Array(Self.doc(tag + " a\(count / 2)=\"again\"/>").utf8)
        do {
            _ = try OPML.read(bytes: bad)
            Issue.record("read a duplicate attribute")
        } catch {
            #expect(String(describing: error) == "OPML line 3, column \(tag.count + 2): attribute a\(count / 2) appears twice in <outline>")
        }
        if count == 200_000 { #expect(bad.count > 2_200_000) }
    }

    /// `<outline text="many" a0="v" a1="v" …`, open for more.
    static func tagWithManyAttributes(_ count: Int) -> String {
        var tag = "<outline text=\"many\""
        for k in 0..<count { tag += " a\(k)=\"v\"" }
        return tag
    }

    /// Far above libxml2's 10 MB limit, which `XMLParser` stopped at: the generator's shape (10 × 10 × 10
    /// inner items, the rest leaves), 1,000,000 items, 23 MB (short titles keep the debug build's test fast).
    @Test func aMillionItems() throws {
        let leaves = (1_000_000 - 1110 + 999) / 1000
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24_000_000)
        bytes += Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\"><head/><body>\n".utf8)
        let leaf = Array("<outline text=\"leaf\"/>\n".utf8)
        let open = Array("<outline text=\"inner\">\n".utf8)
        let close = Array("</outline>\n".utf8)
        for _ in 0..<10 {
            bytes += open
            for _ in 0..<10 {
                bytes += open
                for _ in 0..<10 {
                    bytes += open
                    for _ in 0..<leaves { bytes += leaf }
                    bytes += close
                }
                bytes += close
            }
            bytes += close
        }
        bytes += Array("</body></opml>\n".utf8)
        #expect(bytes.count > 20_000_000)
        let nodes = try OPML.read(bytes: bytes)
        #expect(nodes.count == 10)
        let total = nodes.reduce(0) { $0 + $1.count }
        let expected = 1110 + 1000 * leaves
        #expect(total == expected)
        #expect(nodes[9].children[9].children[9].children.last == OutlineNode("leaf"))
    }
}
