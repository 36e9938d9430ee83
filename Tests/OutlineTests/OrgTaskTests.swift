import Foundation
import Testing

@testable import Outline

/// What an Org headline says beyond its title, read as data: the keyword as the item's state, the priority
/// cookie, the planning line's timestamps and the property drawer; written back byte for byte when the item
/// did not change, and as Emacs would write it when it did.
@Suite struct OrgTaskTests {
    /// The org GTD shape of the issue: a keyword, a priority, a date below.
    static let gtd = """
        #+TITLE: Work
        * Workspace
        ** TODO [#B] Review: Type conversions
           SCHEDULED: <2026-12-01 Tue>
        ** NEXT Call Bob
        ** DONE [#A] Ship
           CLOSED: [2026-11-20 Fri 17:05] SCHEDULED: <2026-11-18 Wed 9:00 +1w> DEADLINE: <2026-11-20 Fri -2d>
           :PROPERTIES:
           :ID:       42
           :END:
           Notes stay notes.

        """

    @Test func aTaskIsItsKeywordPriorityAndDates() throws {
        let nodes = try OrgOutline.read(Self.gtd)
        #expect(nodes.count == 2)
        let tasks = nodes[1].children
        #expect(tasks.map(\.title) == ["Review: Type conversions", "NEXT Call Bob", "Ship"])
        #expect(tasks[0].extras == OutlineNode.Extras(state: "TODO", priority: "B", scheduled: "2026-12-01"))
        #expect(!tasks[0].isDone && tasks[0].note == nil)
        // NEXT is no keyword of this file (no #+TODO line): it is title text, as Emacs reads it.
        #expect(tasks[1].extras == nil)
        #expect(tasks[2].isDone && tasks[2].state == "DONE" && tasks[2].priority == "A")
        let ship = try #require(tasks[2].extras)
        #expect(ship.closed == "2026-11-20 17:05" && ship.scheduled == "2026-11-18 09:00 +1w" && ship.deadline == "2026-11-20 -2d")
        #expect(ship.properties == ":ID:       42")
        #expect(tasks[2].note == "   Notes stay notes.")
        // The hour written with one digit is kept as the file had it.
        #expect(ship.orgHead?.contains("<2026-11-18 Wed 9:00 +1w>") == true)
        #expect(OrgOutline.write(nodes) == Self.gtd)
    }

    /// Tags at a headline's end are the item's tags, the title without them; written back aligned as Emacs
    /// aligns them (ending at column 77), byte for byte when unchanged.
    @Test func tagsAreTheHeadlinesEnd() throws {
        let text = """
            * Workspace                                                           :work:
            ** TODO [#B] Review: Type conversions                          :code:urgent:
            ** Plain :not a tag:
            ** :solo:
            ** Ratio 1:2:3
            ***    Spaced  	:a:b:	

            """
        let nodes = try OrgOutline.read(text)
        #expect(nodes[0].title == "Workspace" && nodes[0].tags == ["work"])
        let items = nodes[0].children
        #expect(items[0].title == "Review: Type conversions" && items[0].tags == ["code", "urgent"] && items[0].priority == "B")
        #expect(items.map(\.title) == ["Review: Type conversions", "Plain :not a tag:", "", "Ratio 1:2:3"])
        #expect(items.map(\.tags) == [["code", "urgent"], [], ["solo"], []])
        #expect(items[3].children[0].title == "   Spaced" && items[3].children[0].tags == ["a", "b"])
        #expect(OrgOutline.write(nodes) == text, "unchanged: as it was")
        // Changed, or made here: aligned to column 77, or one space after a long title.
        var changed = nodes
        changed[0].children[0].tags = ["code"]
        changed[0].children.append(OutlineNode(String(repeating: "long ", count: 16) + "end", extras: OutlineNode.Extras(tags: ["x", "big project"])))
        let written = OrgOutline.write(changed)
        let lines = written.split(separator: "\n")
        #expect(lines[1] == "** TODO [#B] Review: Type conversions" + String(repeating: " ", count: 34) + ":code:")
        #expect(lines[1].count == 77)
        #expect(lines.last.map(String.init) == "** " + String(repeating: "long ", count: 16) + "end :x:big_project:")
        let back = try OrgOutline.read(written)
        #expect(back[0].children[0].tags == ["code"] && back[0].children.last?.tags == ["x", "big_project"])
        // Aligned as Emacs counts columns: a wide character takes two, a combining mark none.
        let wide = OrgOutline.write([OutlineNode("会議 café\u{301}", extras: OutlineNode.Extras(tags: ["work"]))])
        #expect(wide == "* 会議 café\u{301}" + String(repeating: " ", count: 77 - 2 - 9 - 6) + ":work:\n", "\(wide)")
    }

    /// A title that ends as tags would (and has none, or others) is written so that it reads back as title.
    @Test(arguments: [":a:", "Meeting :x:", "x :y:z:", "  :a:  ", "trailing blanks \t ", "a\u{200B}", "plain"])
    func aTitleThatLooksLikeTagsStaysTitle(title: String) throws {
        for tags in [[], ["t"]] as [[String]] {
            let node = OutlineNode(title, extras: OutlineNode.Extras(tags: tags))
            let back = try OrgOutline.read(OrgOutline.write([node]))
            #expect(back.map(\.title) == [title] && back.map(\.tags) == [tags], "\(OrgOutline.write([node]))")
        }
    }

    /// A group with a tag Burrow cannot hold (over 100 characters) stays in the title.
    @Test func anOverlongTagStaysTitle() throws {
        let line = "* Ship :" + String(repeating: "x", count: 101) + ":\n"
        let nodes = try OrgOutline.read(line)
        #expect(nodes.map(\.tags) == [[]] && nodes.first?.title.hasSuffix("x:") == true)
        #expect(OrgOutline.write(nodes) == line)
    }

    /// A changed item is written as Emacs writes it; an unchanged one keeps the file's own spacing.
    @Test func aChangedHeadIsWrittenAfresh() throws {
        var nodes = try OrgOutline.read(Self.gtd)
        nodes[1].children[2].extras?.deadline = "2026-11-27"
        nodes[1].children[0].priority = nil
        nodes[1].children[0].state = "DONE"
        nodes[1].children[0].isDone = true
        let text = OrgOutline.write(nodes)
        #expect(text.contains("** DONE Review: Type conversions\n   SCHEDULED: <2026-12-01 Tue>\n"))
        let planning = "CLOSED: [2026-11-20 Fri 17:05] SCHEDULED: <2026-11-18 Wed 09:00 +1w> DEADLINE: <2026-11-27 Fri>"
        #expect(text.contains("** DONE [#A] Ship\n   " + planning + "\n"))
        #expect(text.contains("   :PROPERTIES:\n   :ID:       42\n   :END:\n   Notes stay notes.\n"))
        let back = try OrgOutline.read(text)
        #expect(back[1].children[2].extras?.deadline == "2026-11-27")
        #expect(back[1].children[0].isDone)
    }

    /// States the file does not declare are declared by the writer, so they read back as states.
    @Test func statesOfOurOwnAreDeclared() throws {
        let nodes = [
            OutlineNode("a", extras: .init(state: "NEXT")), OutlineNode("b", isDone: true, extras: .init(state: "CANCELLED")),
            OutlineNode("c", extras: .init(state: "TODO"))
        ]
        let text = OrgOutline.write(nodes)
        #expect(text == "#+TODO: TODO NEXT | DONE CANCELLED\n* NEXT a\n* CANCELLED b\n* TODO c\n")
        let back = try OrgOutline.read(text)
        #expect(back.dropFirst().map(\.state) == ["NEXT", "CANCELLED", "TODO"])
        #expect(back.dropFirst().map(\.isDone) == [false, true, false])
    }

    /// Titles that would read as more than a title are escaped, and read back as they were.
    @Test(
        arguments: [
            OutlineNode("[#A] not a priority"), OutlineNode("TODO not a task"), OutlineNode("x", extras: .init(state: "TODO", priority: "C")),
            OutlineNode("[#B] after a keyword", extras: .init(state: "TODO")), OutlineNode("  spaced", extras: .init(priority: "A")),
            OutlineNode("", extras: .init(state: "TODO", priority: "A")), OutlineNode("", extras: .init(priority: "Z")),
            OutlineNode("\u{200B}mark", extras: .init(state: "TODO")), OutlineNode("é", extras: .init(priority: "é")),
            // Notes that would start the head: a planning line, a drawer after dates, the escape mark.
            OutlineNode("x", note: "DEADLINE: <2026-05-01 Fri>\nmore"), OutlineNode("y", note: "  SCHEDULED: <2026-05-01 Fri>"),
            OutlineNode("z", note: ":PROPERTIES:\n:ID: 1\n:END:\ntext", extras: .init(scheduled: "2026-05-01")),
            OutlineNode("w", note: "\u{200B}starts with the mark"), OutlineNode("v", note: ":PROPERTIES:\n:END:")
        ])
    func escapesRoundTrip(node: OutlineNode) throws {
        #expect(try OrgOutline.read(OrgOutline.write([node])) == [node], "\(OrgOutline.write([node]).debugDescription)")
    }

    /// Timestamps: what reads, what is kept, and the day's name written.
    /// Timestamps from real files that Emacs reads: a range (planned from its start), a repeater or time Burrow
    /// does not keep whole (the day kept), a keyword alone as a task with an empty title; each file is
    /// written back as it was.
    @Test func timestampsEmacsReadsLeniently() throws {
        let text = """
            * TODO Course
              SCHEDULED: <2017-06-05 Mon 10:00>--<2017-06-09 Fri 18:00>
            * TODO Yearly
              SCHEDULED: <2025-05-04 Sun +1yr>
            * TODO Odd time
              DEADLINE: <2020-10-18 1700 Sun .+7d/14d -2d>
            ** TODO
            * Not a date
              SCHEDULED: <someday>

            """
        let nodes = try OrgOutline.read(text)
        #expect(nodes.map(\.title) == ["Course", "Yearly", "Odd time", "Not a date"])
        #expect(nodes[0].extras?.scheduled == "2017-06-05 10:00" && nodes[1].extras?.scheduled == "2025-05-04")
        #expect(nodes[2].extras?.deadline == "2020-10-18")
        #expect(nodes[2].children.first?.state == "TODO" && nodes[2].children.first?.title == "")
        #expect(nodes[3].extras?.scheduled == nil && nodes[3].note == "  SCHEDULED: <someday>")
        #expect(OrgOutline.write(nodes) == text)
    }

    @Test func timestamps() {
        #expect(OrgTimestamp.kept(Array("2026-05-01 Fri".utf8)) == "2026-05-01")
        #expect(OrgTimestamp.kept(Array("2026-05-01 Fr 9:30-10:45 .+1d/3d --2w".utf8)) == "2026-05-01 09:30-10:45 .+1d/3d --2w")
        #expect(OrgTimestamp.kept(Array("2024-02-29".utf8)) == "2024-02-29")
        for bad in ["2026-02-29", "2026-13-01", "2026-5-1", "tomorrow", "2026-05-01 Fri 25:00", "2026-05-01 +1x", "2026-05-01 Fri extra words"] {
            #expect(OrgTimestamp.kept(Array(bad.utf8)) == nil, "\(bad)")
        }
        #expect(OrgTimestamp.inside("2026-05-01 09:30 +1w") == "2026-05-01 Fri 09:30 +1w")
        #expect(["2000-01-01", "2026-11-29", "2024-02-29", "1970-01-01"].map { OrgTimestamp.dayName($0)! } == ["Sat", "Sun", "Thu", "Thu"])
        // A planning line that does not read (a bad date) stays in the note.
        let nodes = try? OrgOutline.read("* TODO a\n  SCHEDULED: <2026-02-30 Mon>\n")
        #expect(nodes == [OutlineNode("a", note: "  SCHEDULED: <2026-02-30 Mon>", extras: .init(state: "TODO"))])
    }

    /// After the outline's own text above the first headline, a first item that looks like such text is
    /// written as a headline (written as text, it would merge with the preamble when read).
    @Test func aPreambleAndAFirstItemThatLooksLikeOne() throws {
        var writer = OrgWriter(keywords: OrgKeywords(), preamble: "#+TITLE: t")
        let text = writer.write([OutlineNode("", note: "intro")])
        #expect(text == "#+TITLE: t\n* \nintro\n")
        #expect(try OrgOutline.read(text) == [OutlineNode("", note: "#+TITLE: t"), OutlineNode("", note: "intro")])
    }
}
