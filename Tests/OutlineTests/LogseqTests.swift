import Testing

@testable import Outline

/// Logseq pages read as Logseq reads them: a heading as a block's first line is its title, task markers
/// and priorities are the item's state and priority, `SCHEDULED:`/`DEADLINE:` lines its dates, `key:: value`
/// lines its properties, `#tag` and `#[[two words]]` its tags; and Markdown export writes them so.
@Suite struct LogseqTests {
    static let page = """
        - ## Usage
          collapsed:: true
        \t- TODO [#A] Call Bob #work
        \t  SCHEDULED: <2026-05-01 Fri>
        \t- DONE Ship it #[[big project]], then rest
        \t- LATER Read
        \t  id:: 6479
        \t  DEADLINE: <2026-05-03 Sun 10:00>
        - NOW Plain paragraph
          more of the title

          A note.
        - TODO

        """

    @Test func aPageReadsAsLogseqReadsIt() throws {
        let nodes = try MarkdownOutline.read(Self.page)
        #expect(nodes.map(\.title) == ["Usage", "Plain paragraph more of the title", "TODO"])
        #expect(nodes[0].extras == OutlineNode.Extras(properties: "collapsed:: true"))
        #expect(nodes[0].note == nil)
        let tasks = nodes[0].children
        #expect(tasks.map(\.title) == ["Call Bob", "Ship it #[[big project]], then rest", "Read"])
        #expect(tasks[0].extras == OutlineNode.Extras(state: "TODO", priority: "A", scheduled: "2026-05-01", tags: ["work"]))
        #expect(!tasks[0].isDone)
        // A tag inside the text is text.
        #expect(tasks[1].isDone && tasks[1].state == "DONE" && tasks[1].tags == [])
        #expect(tasks[2].extras == OutlineNode.Extras(state: "LATER", deadline: "2026-05-03 10:00", properties: "id:: 6479"))
        #expect(nodes[1].state == "NOW" && nodes[1].note == "A note.")
        // A marker alone is a title, as Logseq shows it.
        #expect(nodes[2].extras == nil)
    }

    /// Logseq's tags need not start with a letter: an emoji (`#📑READ`), or a class like `#.ol`; a number
    /// (`#123`, an issue's) stays text, as does a `#` alone.
    @Test func tagsOfEmojiAndClasses() throws {
        let nodes = try MarkdownOutline.read("- Paper #📑READ\n- Steps #.ol\n- Fixed (#123)\n- Issue #123\n- C #\n- Me #🙋🏻PICKME\n")
        #expect(nodes.map(\.title) == ["Paper", "Steps", "Fixed (#123)", "Issue #123", "C #", "Me"])
        #expect(nodes.map(\.tags) == [["📑READ"], [".ol"], [], [], [], ["🙋🏻PICKME"]])
        // Written back as they were.
        let written = MarkdownOutline.write(nodes)
        #expect(written.contains("- Paper #📑READ\n") && written.contains("- Steps #.ol\n"), "\(written)")
        #expect(try MarkdownOutline.read(written) == nodes)
        // Punctuation after the word closes a sentence: no tag (`#[[work)]]` is how such a tag is written).
        let prose = try MarkdownOutline.read("- Fixed (#work)\n- I tant, una etiqueta #ficticia.\n- Meet #[[work)]]\n")
        #expect(prose.map(\.title) == ["Fixed (#work)", "I tant, una etiqueta #ficticia.", "Meet"])
        #expect(prose.map(\.tags) == [[], [], ["work)"]])
    }

    /// A block over several lines was not written by Burrow (its titles are one line): no `\\` is taken as
    /// the writer's escape there, so LaTeX's row breaks (`\\\\`) stay at a line's end and start.
    @Test func latexOverSeveralLinesKeepsItsBackslashes() throws {
        let nodes = try MarkdownOutline.read("- $$x = 1 \\\\\n  \\\\= y \\\\\n  z$$\n- \\# one line\n")
        #expect(nodes.map(\.title) == ["$$x = 1 \\\\ \\\\= y \\\\ z$$", "# one line"])
    }

    /// Logseq's clocked time (`:LOGBOOK:` … `:END:` under a block's first line) is the item's note, not
    /// part of its title, and goes back as a drawer Org reads.
    @Test func aLogbookIsTheNote() throws {
        let page = """
            - DONE Write the report #work
              SCHEDULED: <2022-11-18 Fri>
              :LOGBOOK:
              CLOCK: [2022-11-18 Fri 10:00:00]--[2022-11-18 Fri 10:30:00] =>  00:30:00
              :END:
              - a child
            - Not a drawer
              :word: without an end

            """
        let nodes = try MarkdownOutline.read(page)
        #expect(nodes.map(\.title) == ["Write the report", "Not a drawer :word: without an end"])
        let logbook = ":LOGBOOK:\nCLOCK: [2022-11-18 Fri 10:00:00]--[2022-11-18 Fri 10:30:00] =>  00:30:00\n:END:"
        #expect(nodes[0].note == logbook)
        #expect(nodes[0].extras == OutlineNode.Extras(state: "DONE", scheduled: "2022-11-18", tags: ["work"]))
        #expect(nodes[0].children.map(\.title) == ["a child"])
        #expect(try MarkdownOutline.read(MarkdownOutline.write(nodes)) == nodes)
        let org = OrgOutline.write(nodes)
        #expect(org.contains("  SCHEDULED: <2022-11-18 Fri>\n" + logbook + "\n** a child\n"), "\(org)")
    }

    /// A repeating task's log holds the state changes Logseq records, `* State "DONE" from "TODO" […]`, which
    /// CommonMark reads as a list: inside the drawer they are the note too, not sub-items; the item's own
    /// sub-items after `:END:` stay. The same read whole or a piece at a time, taken one by one.
    @Test func aLogbookWithStateChangesIsTheNote() throws {
        let page = """
            - DONE Water the plants
              :LOGBOOK:
              * State "DONE" from "TODO" [2022-09-12 Mon 08:54]
              CLOCK: [2022-09-19 Mon 08:46:50]--[2022-09-19 Mon 08:46:52] =>  00:00:02
              * State "DONE" from "TODO" [2022-09-13 Tue 11:22]
              :END:
              - a real child
            - Next

            """
        let nodes = try MarkdownOutline.read(page)
        #expect(nodes.map(\.title) == ["Water the plants", "Next"])
        #expect(nodes[0].children.map(\.title) == ["a real child"])
        #expect(
            nodes[0].note == """
                :LOGBOOK:
                * State "DONE" from "TODO" [2022-09-12 Mon 08:54]
                CLOCK: [2022-09-19 Mon 08:46:50]--[2022-09-19 Mon 08:46:52] =>  00:00:02
                * State "DONE" from "TODO" [2022-09-13 Tue 11:22]
                :END:
                """)
        for size in [1, 3, 64, 1 << 16] {
            var taken: [(String, String?, Int)] = []
            var builder = OutlineBuilder { node, depth in taken.append((node.title, node.note, depth)) }
            try MarkdownOutline.read(page, into: &builder, feedSize: size)
            #expect(taken.map(\.0) == ["Water the plants", "a real child", "Next"] && taken[0].1 == nodes[0].note, "pieces of \(size)")
            var tree = OutlineBuilder()
            try MarkdownOutline.read(page, into: &tree, feedSize: size)
            #expect(tree.finish() == nodes, "pieces of \(size)")
        }
        #expect(try MarkdownOutline.read(MarkdownOutline.write(nodes)) == nodes)
        #expect(try WholeMarkdownReader.read(page) == nodes)
    }

    /// A title's end as written: a `\\` is text (LaTeX's `\\\\`, read from any file), and what the writer must
    /// keep (a blank a paragraph drops, a `\\` that a planning line after it would make a line break) it keeps
    /// with its mark after it, with tags and dates or without.
    @Test func titleEndsReadBack() throws {
        #expect(try MarkdownOutline.read("- 850 & 0 \\\\\n- a \\\n").map(\.title) == ["850 & 0 \\\\", "a \\"])
        var nodes: [OutlineNode] = []
        for title in ["a \\", "a\\", "a \\\\", "trailing ", "tab\t", "x #tag ", "\\", " "] {
            nodes.append(OutlineNode(title))
            nodes.append(OutlineNode(title, extras: .init(scheduled: "2026-05-01")))
            nodes.append(OutlineNode(title, extras: .init(tags: ["work"])))
            nodes.append(OutlineNode(title, extras: .init(state: "TODO", deadline: "2026-05-02", tags: ["a", "b c"])))
        }
        let written = MarkdownOutline.write(nodes)
        #expect(try MarkdownOutline.read(written) == nodes, "\(written)")
    }

    /// What Markdown export writes reads back as the same items: states (an Org keyword Logseq lacks as
    /// `TODO`/`DONE`), priorities, dates, properties (an Org drawer's as `key:: value`), tags the title does
    /// not name, and titles that only look like tasks.
    @Test func exportReadsBackAsTheSameItems() throws {
        let nodes = [
            OutlineNode("Call Bob", extras: .init(state: "TODO", priority: "B", scheduled: "2026-05-01 09:00 +1w", tags: ["work", "big project"])),
            OutlineNode("Shipped", isDone: true, extras: .init(state: "DONE", closed: "2026-04-30 17:05")),
            OutlineNode("Done box", isDone: true),
            OutlineNode("TODO list for the week"),
            OutlineNode("[#A] is a cookie"),
            OutlineNode("DONE twice", extras: .init(state: "TODO")),
            OutlineNode("Say #hello to Bob", extras: .init(tags: ["hello"])),
            OutlineNode("Issue #fix"),
            OutlineNode("\u{200B}starts with the mark"),
            OutlineNode(
                "Heading", note: "Body.", extras: .init(deadline: "2026-06-01", properties: "collapsed:: true\nid:: 42"),
                children: [OutlineNode("Child", extras: .init(priority: "C"))])
        ]
        let text = MarkdownOutline.write(nodes)
        let back = try MarkdownOutline.read(text)
        #expect(back == nodes, "\(text)")
        #expect(text.contains("- TODO [#B] Call Bob #work #[[big project]]\n  SCHEDULED: <2026-05-01 Fri 09:00 +1w>\n"), "\(text)")
        #expect(text.contains("- \u{200B}TODO list for the week\n"))
        #expect(text.contains("- Say #hello to Bob #hello\n"))
        #expect(text.contains("- Issue #fix\u{200B}\n"), "a title that ends as tags would is marked")
        let ending = [OutlineNode("Fix #bug", extras: .init(tags: ["bug"]))]
        #expect(try MarkdownOutline.read(MarkdownOutline.write(ending)) == ending)

        // Converted, not lost: an Org keyword Logseq has not, an Org property drawer.
        let org = [
            OutlineNode("Wait for it", extras: .init(state: "NEXT")),
            OutlineNode("Closed", isDone: true, extras: .init(state: "FINISHED", properties: ":ID:       42"))
        ]
        let converted = try MarkdownOutline.read(MarkdownOutline.write(org))
        #expect(converted.map(\.state) == ["TODO", "DONE"])
        #expect(converted[1].isDone && converted[1].extras?.properties == "ID:: 42")

        // And back to Org: a Logseq property is a drawer's line.
        let page = try MarkdownOutline.read(Self.page)
        let orgText = OrgOutline.write(page)
        #expect(orgText.contains("** LATER Read\n   DEADLINE: <2026-05-03 Sun 10:00>\n   :PROPERTIES:\n   :id: 6479\n   :END:\n"), "\(orgText)")
        let read = try #require(try OrgOutline.read(orgText).first { $0.title == "Usage" }?.children.last)
        #expect(read.title == "Read" && read.extras?.properties == ":id: 6479")
    }

    /// Obsidian Tasks' dates at a task's end: 📅 due, ⏳ scheduled, ✅ done (and closed that day).
    @Test func obsidianTasksDates() throws {
        let nodes = try MarkdownOutline.read(
            """
            - [ ] Call Bob #work 📅 2026-12-01 ⏳ 2026-11-30
            - [x] Shipped ✅ 2026-11-20
            - Feeling 📅 fine
            - 📅 2026-12-01

            """)
        #expect(nodes[0].title == "Call Bob" && nodes[0].tags == ["work"] && !nodes[0].isDone)
        #expect(nodes[0].extras?.deadline == "2026-12-01" && nodes[0].extras?.scheduled == "2026-11-30")
        #expect(nodes[1].title == "Shipped" && nodes[1].isDone && nodes[1].extras?.closed == "2026-11-20")
        #expect(nodes[2].title == "Feeling 📅 fine" && nodes[2].extras == nil)
        #expect(nodes[3].title == "📅 2026-12-01" && nodes[3].extras == nil, "a date alone is a title")
        // What reads as a date and was none is written so that it stays title.
        let plain = [OutlineNode("Meet 📅 2026-12-01")]
        #expect(try MarkdownOutline.read(MarkdownOutline.write(plain)) == plain)
    }

    /// From real Logseq pages: a property whose name has a dot, tags on the first line of a
    /// block written over several, a `#` inside inline code.
    @Test func realPagesShapes() throws {
        let nodes = try MarkdownOutline.read(
            """
            - list one
              logseq.order-list-type:: number
            - DOING Write
            - TODO List commands #docs
              more of it
            - `#if 0 ... #endif`

            """)
        #expect(nodes.map(\.title) == ["list one", "Write", "List commands more of it", "`#if 0 ... #endif`"])
        #expect(nodes[0].extras?.properties == "logseq.order-list-type:: number")
        #expect(nodes[1].state == "DOING")
        #expect(nodes[2].tags == ["docs"] && nodes[3].tags == [])
    }
}
