import Foundation
import TestSupport
import Testing

@testable import Outline

private func n(_ title: String, note: String? = nil, done: Bool = false, _ children: OutlineNode...) -> OutlineNode {
    // A done headline has a done keyword: `DONE` unless a test names another (`t`).
    OutlineNode(title, note: note, isDone: done, extras: done ? OutlineNode.Extras(state: "DONE") : nil, children: children)
}

/// A headline with a keyword and what else its head says.
private func t(
    _ state: String?, _ title: String, note: String? = nil, done: Bool = false, priority: String? = nil, scheduled: String? = nil,
    deadline: String? = nil, closed: String? = nil, properties: String? = nil, orgHead: String? = nil, tags: [String] = [],
    _ children: OutlineNode...
) -> OutlineNode {
    let extras = OutlineNode.Extras(
        state: state, priority: priority, scheduled: scheduled, deadline: deadline, closed: closed, properties: properties, orgHead: orgHead,
        tags: tags)
    return OutlineNode(title, note: note, isDone: done, extras: extras, children: children)
}

/// Org files as Emacs writes and reads them (each rule below was checked against Emacs 28.2's Org 9.5 by
/// printing `org-element-parse-buffer`'s headlines), and hostile ones.
@Suite struct OrgOutlineTests {
    /// What Org holds of a node: titles on one line (notes are held whole). Children are left to the caller.
    static func holdable(_ node: OutlineNode) -> OutlineNode {
        var m = node
        m.title = m.title.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "\r", with: " ")
        // A done item is written with a done keyword, which is its state when read (`DONE`, without keyword
        // lines of the notes' own).
        if m.isDone && m.state == nil { m.state = "DONE" }
        return m
    }

    static func holdableTree(_ nodes: [OutlineNode]) -> [OutlineNode] {
        nodes.map { node in
            var m = holdable(node)
            m.children = holdableTree(node.children)
            return m
        }
    }

    /// A file as people keep them: settings above the first headline, TODO keywords of its own, priorities,
    /// aligned tags, planning lines, drawers, lists, a source block with escaped headlines, blank lines.
    static let normalFile = """
        #+TITLE: Plans
        #+TODO: TODO NEXT WAIT(w@/!) | DONE CANCELLED(c)
        #+STARTUP: overview

        Some words before the first headline.

        * NEXT [#A] Ship the release                                     :work:urgent:
          SCHEDULED: <2026-05-01 Fri> DEADLINE: <2026-05-03 Sun>
          :PROPERTIES:
          :CUSTOM_ID: release
          :END:
          :LOGBOOK:
          - State "WAIT"       from "TODO"       [2026-04-20 Mon 10:02]
          :END:
          - [ ] changelog
          - [X] tag

        ** DONE Write the notes
           CLOSED: [2026-04-21 Tue 09:00]
        ** TODO Upload                                                         :ops:
        #+BEGIN_SRC org
        ,* not a headline
        ,,** two commas
        #+END_SRC
        *bold* at the start of a line, **
        **
        *** WAIT deep [1/2]
        * COMMENT Old ideas
          A footnote[fn:1].
        * Footnotes
        [fn:1] The footnote.

        """

    @Test func aNormalFileIsReadAsEmacsReadsItAndWrittenBackByteForByte() throws {
        let nodes = try OrgOutline.read(Self.normalFile)
        let expected = [
            n(
                "",
                note:
                    "#+TITLE: Plans\n#+TODO: TODO NEXT WAIT(w@/!) | DONE CANCELLED(c)\n#+STARTUP: overview\n\nSome words before the first headline.\n"
            ),
            t(
                "NEXT", "Ship the release",
                note: """
                      :LOGBOOK:
                      - State "WAIT"       from "TODO"       [2026-04-20 Mon 10:02]
                      :END:
                      - [ ] changelog
                      - [X] tag

                    """, priority: "A", scheduled: "2026-05-01", deadline: "2026-05-03", properties: ":CUSTOM_ID: release",
                // Aligned one column past Org's 77: the file's own spacing, kept.
                orgHead: "NEXT [#A] Ship the release" + String(repeating: " ", count: 37) + ":work:urgent:\n"
                    + "  SCHEDULED: <2026-05-01 Fri> DEADLINE: <2026-05-03 Sun>\n  :PROPERTIES:\n  :CUSTOM_ID: release\n  :END:",
                tags: ["work", "urgent"],
                t("DONE", "Write the notes", done: true, closed: "2026-04-21 09:00"),
                t(
                    "TODO", "Upload",
                    note: "#+BEGIN_SRC org\n* not a headline\n,** two commas\n#+END_SRC\n*bold* at the start of a line, **\n**",
                    orgHead: "TODO Upload" + String(repeating: " ", count: 57) + ":ops:", tags: ["ops"],
                    t("WAIT", "deep [1/2]")
                )
            ),
            n("COMMENT Old ideas", note: "  A footnote[fn:1]."),
            n("Footnotes", note: "[fn:1] The footnote.")
        ]
        #expect(nodes == expected)
        #expect(OrgOutline.write(nodes) == Self.normalFile)
        // Through the format as `burrow import` and `export` call it.
        #expect(try OutlineFormat.org.read(Self.normalFile) == expected)
        #expect(OutlineFormat.org.write(expected) == Self.normalFile)
    }

    /// CR LF line ends, a byte-order mark, and both: the same tree as the LF file; written back with LF.
    @Test func windowsLineEndsAndAByteOrderMark() throws {
        let lf = try OrgOutline.read(Self.normalFile)
        let crlf = Self.normalFile.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(crlf.utf8.filter { $0 == 0x0D }.count == Self.normalFile.utf8.filter { $0 == 0x0A }.count)
        #expect(try OrgOutline.read(crlf) == lf)
        #expect(try OrgOutline.read("\u{FEFF}" + Self.normalFile) == lf)
        #expect(try OrgOutline.read("\u{FEFF}" + crlf) == lf)
        #expect(OrgOutline.write(try OrgOutline.read(crlf)) == Self.normalFile)
        // A BOM starting the first headline is no title text; the last line may end without LF.
        #expect(try OrgOutline.read("\u{FEFF}* a\r\n** b") == [n("a", n("b"))])
        #expect(try OrgOutline.read("* a\nlast") == [n("a", note: "last")])
        // A CR inside a line is text, and so is one before LF in a file with an LF alone (as in Emacs).
        #expect(try OrgOutline.read("* a\rb\r\nx\ry\r\n") == [n("a\rb", note: "x\ry")])
        #expect(try OrgOutline.read("* a\rb\r\nx\ry\r\n\n") == [n("a\rb\r", note: "x\ry\r\n")])
        // So a note whose lines end in CR is written (as a headline's, not as text above the first one) and
        // read back whole.
        for note in ["\r", "x\r\ny\r", "\r\n\r"] {
            #expect(try OrgOutline.read(OrgOutline.write([n("", note: note)])) == [n("", note: note)])
            #expect(try OrgOutline.read(OrgOutline.write([n("", note: note), n("a", note: note)])) == [n("", note: note), n("a", note: note)])
        }
    }

    /// What is a headline: stars at the start of the line, then a space. Emacs reads `**` alone, `*\tx`
    /// and `*bold*` as text, and `** ` (stars, space, nothing) as a headline with an empty title.
    @Test(
        arguments: [
            ("* a\n**\n", [n("a", note: "**")]),
            ("* a\n** \n", [n("a", n(""))]),
            ("* a\n*\tb\n", [n("a", note: "*\tb")]),
            ("* a\n*bold* text\n", [n("a", note: "*bold* text")]),
            ("* a\n *  indented\n\t* tab\n", [n("a", note: " *  indented\n\t* tab")]),
            ("* a * b *\n", [n("a * b *")]),
            ("* * x\n** *** y\n", [n("* x", n("*** y"))]),
            ("*  two spaces\n", [n(" two spaces")]),
            ("*\n* \n", [n("", note: "*"), n("")]),
            ("", []),
            ("\n\n  \n\t\n", [])
        ] as [(String, [OutlineNode])])
    func headlines(text: String, expected: [OutlineNode]) throws {
        #expect(try OrgOutline.read(text) == expected)
    }

    /// `*` then `***`: the second nests under the first (a headline's parent is the nearest one above with
    /// fewer stars, as Emacs's tree has it), and is written back with two stars. A file may start deep.
    @Test func levelJumpsNestUnderTheNearestShallowerHeadline() throws {
        let nodes = try OrgOutline.read("* a\n*** b\n***** c\n** d\n* e\n*** f\n")
        #expect(nodes == [n("a", n("b", n("c")), n("d")), n("e", n("f"))])
        #expect(OrgOutline.write(nodes) == "* a\n** b\n*** c\n** d\n* e\n** f\n")
        #expect(try OrgOutline.read("*** deep first\n* then top\n** under it\n") == [n("deep first"), n("then top", n("under it"))])
    }

    /// Text before the first headline is kept as a first item with an empty title; blank lines alone are
    /// not; the writer gives it back above the first headline, and writes an item that only looks like it
    /// (with sub-items, done, or a note of blank lines) as a headline.
    @Test func textBeforeTheFirstHeadline() throws {
        #expect(try OrgOutline.read("#+TITLE: t\n* a\n") == [n("", note: "#+TITLE: t"), n("a")])
        #expect(try OrgOutline.read("intro\n\n") == [n("", note: "intro\n")])
        #expect(try OrgOutline.read("\n \n* a\n") == [n("a")])
        #expect(OrgOutline.write([n("", note: "#+TITLE: t"), n("a")]) == "#+TITLE: t\n* a\n")
        for lookalike in [n("", note: "x", n("child")), n("", note: "x", done: true), n("", note: " \n\t"), n("", note: "\u{FEFF}x"), n("")] {
            let nodes = [lookalike, n("a")]
            #expect(OrgOutline.write(nodes).hasPrefix(lookalike.isDone ? "* DONE " : "* "))
            #expect(try OrgOutline.read(OrgOutline.write(nodes)) == nodes)
        }
        // Only the first item can be the text above the first headline.
        let second = [n("a"), n("", note: "x")]
        #expect(OrgOutline.write(second) == "* a\n* \nx\n")
        #expect(try OrgOutline.read(OrgOutline.write(second)) == second)
    }

    /// Done keywords: `DONE`, or the ones the file's keyword lines name (after `|`, else the last),
    /// wherever those lines stand; other keywords stay in the title; a keyword needs a space after it or the
    /// line's end (`* DONE` alone is a done task with an empty title, as Emacs reads it).
    @Test(
        arguments: [
            (
                "* TODO a\n* DONE b\n* DONE\n* DONE \n* DONE\tc\n* done d\n*  DONE e\n* \tDONE f\n",
                [
                    t("TODO", "a"), n("b", done: true), t("DONE", "", done: true, orgHead: "DONE"), n("", done: true), n("DONE\tc"),
                    n("done d"),
                    t("DONE", "e", done: true, orgHead: " DONE e"), t("DONE", "f", done: true, orgHead: "\tDONE f")
                ]
            ),
            // Fast-access keys and logging in parentheses; SEQ_ and TYP_TODO; the name in any case, indented.
            (
                "  #+todo: A B(b@/!) | C(c) D\n#+SEQ_TODO: E\n#+TYP_TODO: F G\n* B x\n* D y\n* E z\n* G w\n* F v\n* DONE u\n",
                [
                    n("", note: "  #+todo: A B(b@/!) | C(c) D\n#+SEQ_TODO: E\n#+TYP_TODO: F G"),
                    t("B", "x"), t("D", "y", done: true), t("E", "z", done: true), t("G", "w", done: true), t("F", "v"), n("DONE u")
                ]
            ),
            // A keyword line after the headlines applies to those above it.
            (
                "* WAIT x\n* FIN y\n* DONE z\n#+TODO: WAIT | FIN\n",
                [t("WAIT", "x"), t("FIN", "y", done: true), n("DONE z", note: "#+TODO: WAIT | FIN")]
            ),
            // `A |` and `| A`: A is done. A line naming nothing is ignored (DONE stays).
            ("#+TODO: A |\n* A x\n* DONE y\n", [n("", note: "#+TODO: A |"), t("A", "x", done: true), n("DONE y")]),
            ("#+TODO: | A\n* A x\n", [n("", note: "#+TODO: | A"), t("A", "x", done: true)]),
            ("#+TODO:\n#+TODO: |\n* DONE x\n", [n("", note: "#+TODO:\n#+TODO: |"), n("x", done: true)]),
            // Inside a closed source, example, export, comment or verse block a keyword line is text...
            ("* h\n#+begin_src elisp\n#+TODO: A | B\n#+end_src\n* B x\n", [n("h", note: "#+begin_src elisp\n#+TODO: A | B\n#+end_src"), n("B x")]),
            (
                "* h\n#+BEGIN_VERSE\n#+TODO: A | B\n  #+END_VERSE  \n* B x\n",
                [n("h", note: "#+BEGIN_VERSE\n#+TODO: A | B\n  #+END_VERSE  "), n("B x")]
            ),
            // ...but not in a block closed only in the next section, a quote block, or a block of another name.
            (
                "* h\n#+BEGIN_SRC\n#+TODO: A | B\n* B x\n#+END_SRC\n",
                [n("h", note: "#+BEGIN_SRC\n#+TODO: A | B"), t("B", "x", note: "#+END_SRC", done: true)]
            ),
            (
                "* h\n#+BEGIN_QUOTE\n#+TODO: A | B\n#+END_QUOTE\n* B x\n",
                [n("h", note: "#+BEGIN_QUOTE\n#+TODO: A | B\n#+END_QUOTE"), t("B", "x", done: true)]
            ),
            (
                "* h\n#+BEGIN_SRC\n#+TODO: A | B\n#+END_EXAMPLE\n* B x\n",
                [n("h", note: "#+BEGIN_SRC\n#+TODO: A | B\n#+END_EXAMPLE"), t("B", "x", done: true)]
            ),
            (
                "* h\n#+BEGIN_SRCX\n#+TODO: A | B\n#+END_SRCX\n* B x\n",
                [n("h", note: "#+BEGIN_SRCX\n#+TODO: A | B\n#+END_SRCX"), t("B", "x", done: true)]
            ),
            // A fixed-width line or a comment is no keyword line.
            ("* h\n: #+TODO: A | B\n# #+TODO: A | B\n* B x\n", [n("h", note: ": #+TODO: A | B\n# #+TODO: A | B"), n("B x")])
        ] as [(String, [OutlineNode])])
    func doneKeywords(text: String, expected: [OutlineNode]) throws {
        #expect(try OrgOutline.read(text) == expected)
    }

    /// A `* ` line inside a source block is a headline, as in Emacs (which is why Org escapes such lines as
    /// `,*` there): the block ends at it. Escaped, it stays in the note, and the writer escapes it again.
    @Test func starLinesInsideBlocks() throws {
        let unescaped = "* h\n#+BEGIN_SRC org\n* inside\n#+END_SRC\n"
        #expect(try OrgOutline.read(unescaped) == [n("h", note: "#+BEGIN_SRC org"), n("inside", note: "#+END_SRC")])
        let escaped = "* h\n#+BEGIN_EXAMPLE\n,* inside\n,,*** two\n,*not a headline\n,\n,,\n#+END_EXAMPLE\n"
        let nodes = try OrgOutline.read(escaped)
        #expect(nodes == [n("h", note: "#+BEGIN_EXAMPLE\n* inside\n,*** two\n,*not a headline\n,\n,,\n#+END_EXAMPLE")])
        #expect(OrgOutline.write(nodes) == escaped)
    }

    /// The writer: keywords, escapes, line breaks in titles, notes whose lines look like headlines.
    @Test func writing() throws {
        let nodes = [
            n("plain", n("DONE not done"), n("  DONE spaced"), n("DONE"), n("\u{200B}starts with the mark")),
            n("DONE done twice", done: true),
            n("", done: true),
            n("two\nlines\r\nand\rthree"),
            n("tags :a:b:", note: "* would be a headline\n** too\n,* has a comma\n*bold*\n**\n\n  * indented")
        ]
        let text = OrgOutline.write(nodes)
        #expect(
            text == """
                * plain
                ** \u{200B}DONE not done
                ** \u{200B}  DONE spaced
                ** \u{200B}DONE
                ** \u{200B}\u{200B}starts with the mark
                * DONE DONE done twice
                * DONE\u{20}
                * two lines and three
                * tags :a:b:\u{200B}
                ,* would be a headline
                ,** too
                ,,* has a comma
                *bold*
                **

                  * indented

                """)
        var expected = nodes
        expected[3].title = "two lines and three"
        #expect(try OrgOutline.read(text) == expected)
    }

    /// A note's `#+TODO:` line is written as it is, so it is the written file's: a done item gets one of its
    /// done keywords (DONE while it is one), and a title starting with one is escaped.
    @Test func keywordLinesInNotesDecideHowDoneIsWritten() throws {
        // A done item without a state of its own gets the file's done keyword, and reads back with it.
        let nodes = [n("", note: "#+TODO: TODO | FIN"), OutlineNode("x", isDone: true), n("FIN y"), n("DONE z")]
        let text = OrgOutline.write(nodes)
        #expect(text == "#+TODO: TODO | FIN\n* FIN x\n* \u{200B}FIN y\n* DONE z\n")
        #expect(try OrgOutline.read(text) == [nodes[0], t("FIN", "x", done: true), nodes[2], nodes[3]])
        let both = [n("a", note: "#+TODO: A | FIN DONE"), OutlineNode("b", isDone: true)]
        #expect(OrgOutline.write(both) == "* a\n#+TODO: A | FIN DONE\n* DONE b\n")
        // CANCELLED is done too: it reads as done, and is written back as it was.
        let cancelled = try OrgOutline.read("#+TODO: TODO | DONE CANCELLED\n* CANCELLED x\n")
        #expect(cancelled == [n("", note: "#+TODO: TODO | DONE CANCELLED"), t("CANCELLED", "x", done: true)])
        #expect(OrgOutline.write(cancelled) == "#+TODO: TODO | DONE CANCELLED\n* CANCELLED x\n")
    }

    /// Hostile bytes in titles and notes come back exactly: controls, NUL, escape sequences, bidi controls.
    @Test func hostileTitlesAndNotes() throws {
        let evil = "evil \u{1B}]0;pwned\u{07} \u{1B}[2J \u{0} \u{9B} \u{202E}rtl \u{0B}\u{0C}\u{85}\u{2028} end"
        let nodes = [n(evil, note: evil + "\n" + evil, done: true, n(evil)), n(":" + evil + ":")]
        #expect(try OrgOutline.read(OrgOutline.write(nodes)) == nodes)
        #expect(try OrgOutline.read(OrgOutline.write(InterchangeTests.sample())) == Self.holdableTree(InterchangeTests.sample()))
    }

    static let fragments = [
        "a", "Z", " ", "  ", "\t", "*", "**", "* ", "** ", ",", ",* ", ",,** ", "DONE", "DONE ", "TODO ", "FIN ", "B ", "\u{200B}",
        "\u{FEFF}", "\n", "\n", "\n", "\r", "\r\n", "#+TODO: A | B", "#+TODO: FIN", "#+TODO:", "#+SEQ_TODO: X", "#+BEGIN_SRC",
        "#+END_SRC", "#+begin_example", "#+end_example", ":tag:", " :a:b:", "[#A] ", "COMMENT ", "é", "👩‍👩‍👧", "e\u{301}",
        "\u{1B}[31m", "\u{0}", "\u{7}", "\u{85}"
    ]

    static func randomText(_ rng: inout SeededRandom, pieces: Int) -> String {
        var s = ""
        for _ in 0..<rng.below(pieces + 1) { s += rng.pick(fragments)! }
        // Lines that start with a fragment, where keyword lines, blocks and headline look-alikes count.
        if rng.below(3) == 0 { s = rng.pick(fragments)! + s }
        return s
    }

    static func randomTree(_ rng: inout SeededRandom, depth: Int) -> [OutlineNode] {
        (0..<rng.below(depth == 0 ? 8 : 5)).map { _ in
            OutlineNode(
                randomText(&rng, pieces: 5), note: rng.below(3) == 0 ? nil : randomText(&rng, pieces: 10), isDone: rng.below(3) == 0,
                children: depth < 5 && rng.below(2) == 0 ? randomTree(&rng, depth: depth + 1) : [])
        }
    }

    /// `read(write(x)) == x` for random outlines of hostile titles and notes (less the line breaks of titles,
    /// which Org cannot hold).
    @Test(arguments: TestSeed.seeds([1, 2, 3, 4, 5, 6, 7, 8]))
    func randomOutlinesRoundTrip(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        for round in 0..<200 {
            var x = Self.randomTree(&rng, depth: 0)
            // Often a first item that is (or looks like) the text above the first headline.
            if rng.below(3) == 0 { x.insert(OutlineNode("", note: Self.randomText(&rng, pieces: 10)), at: 0) }
            // A done item reads back with the done keyword it was written with (its state): which one depends
            // on the keyword lines of the random notes, so states are left out of the comparison.
            let expected = Self.withoutStates(Self.holdableTree(x))
            let text = OrgOutline.write(x)
            let back = Self.withoutStates(try OrgOutline.read(text))
            #expect(back == expected, "seed \(seed) round \(round): \(text.debugDescription)")
            // And a file written from what Org holds is read and written back byte for byte.
            let clean = OrgOutline.write(expected)
            #expect(OrgOutline.write(try OrgOutline.read(clean)) == clean, "seed \(seed) round \(round)")
            if back != expected { return }
        }
    }

    static func withoutStates(_ nodes: [OutlineNode]) -> [OutlineNode] {
        nodes.map { node in
            var m = node
            m.state = nil
            m.children = withoutStates(node.children)
            return m
        }
    }

    /// Big files: the generator's shape of 100,000 headlines (10 × 10 × 10, the rest leaves) becomes that
    /// tree, not a flat list; sections full of keyword lines and unclosed blocks, and a 4 MB title, are read.
    /// That they are read in time linear in their size is the benchmark's (`BurrowBenchmarks hostile`).
    @Test func bigFiles() throws {
        var text = "#+TITLE: big outline\n#+STARTUP: overview\n"
        var count = 0
        for a in 1...10 {
            text += "* L1 \(a)\n"
            for b in 1...10 {
                text += "** L2 \(a).\(b)\n"
                for c in 1...10 {
                    text += "*** L3 \(a).\(b).\(c)\n"
                    for d in 1...99 where count < 100_000 - 1_110 {
                        text += "**** L4 \(d)\n"
                        count += 1
                    }
                }
            }
        }
        var nodes = try OrgOutline.read(text)
        #expect(nodes.count == 11)
        #expect(nodes.dropFirst().map(\.children.count) == Array(repeating: 10, count: 10))
        #expect(nodes.reduce(0) { $0 + $1.count } == 100_001)
        #expect(nodes.map(\.levels).max() == 4)
        #expect(OrgOutline.write(nodes) == text)

        nodes = try OrgOutline.read(Self.keywordsAndOpenBlocks(20_000))
        #expect(nodes.count == 2 && nodes[1] == t("K19999", "last", done: true))

        let long = String(repeating: "word ", count: 800_000)
        #expect(try OrgOutline.read("* DONE " + long + "\n" + long) == [n(long, note: long, done: true)])
    }

    /// A section of `count` lines that alternately open a block never closed and declare a TODO keyword,
    /// then a headline with the last keyword: every line once looked back through all before it.
    static func keywordsAndOpenBlocks(_ count: Int) -> String {
        var hostile = "* h\n"
        for k in 0..<count { hostile += k % 2 == 0 ? "#+BEGIN_SRC\n" : "#+TODO: K\(k) |\n" }
        return hostile + "* K\(count - 1) last\n"
    }

    /// The most levels Org holds here is the line formats' (stars grow with the square of the depth), the
    /// tree's depth, not the stars': `*` then a thousand-and-one stars is two levels.
    @Test func depthIsTheTreesNotTheStars() throws {
        let limit = OutlineBuilder.maximumLevels
        #expect(try OrgOutline.read("* a\n" + String(repeating: "*", count: limit + 5) + " b\n") == [n("a", n("b"))])
        var deep = ""
        for d in 1...(limit + 1) { deep += String(repeating: "*", count: d) + " l\(d)\n" }
        #expect(
            throws: InterchangeError(
                format: "Org", line: limit + 1, column: 1,
                message: "headline is at level \(limit + 1); Org holds at most \(limit) levels (use OPML or JSON)")
        ) {
            try OrgOutline.read(deep)
        }
    }
}
