import Foundation
import TestSupport
import Testing

@testable import Outline

/// A quick-capture line's tokens: state, priority, due and planned days; everything else stays the title.
@Suite struct CaptureLineTests {
    /// A Sunday.
    static let today = "2026-11-29"

    @Test(
        arguments: [
            ("Call Bob #work !A due:fri", "Call Bob", OutlineNode.Extras(priority: "A", deadline: "2026-12-04", tags: ["work"])),
            ("Plan #[[big project]] trip #home #work #home", "Plan trip", OutlineNode.Extras(tags: ["big project", "home", "work"])),
            ("Fix #123 #bugs", "Fix #123", OutlineNode.Extras(tags: ["bugs"])),
            ("sched:tomorrow 9:00 Meeting", "Meeting", OutlineNode.Extras(scheduled: "2026-11-30 09:00")),
            ("TODO Buy milk", "Buy milk", OutlineNode.Extras(state: "TODO")),
            ("DONE Filed taxes due:today", "Filed taxes", OutlineNode.Extras(state: "DONE", deadline: "2026-11-29")),
            ("Pay rent !b due:2026-12-01 sched:+3d", "Pay rent", OutlineNode.Extras(priority: "B", scheduled: "2026-12-02", deadline: "2026-12-01")),
            ("Trip due:+2w", "Trip", OutlineNode.Extras(deadline: "2026-12-13")),
            ("Church due:sun", "Church", OutlineNode.Extras(deadline: "2026-11-29")),
            ("Gym sched:Saturday 18:30", "Gym", OutlineNode.Extras(scheduled: "2026-12-05 18:30"))
        ] as [(String, String, OutlineNode.Extras)])
    func tokens(line: String, title: String, extras: OutlineNode.Extras) {
        let c = CaptureLine(line, today: Self.today)
        #expect(c.title == title)
        #expect(c.extras == extras)
    }

    /// What is not a token stays in the title, as typed.
    @Test(arguments: [
        "TODO", "!A due:fri", "due:someday is kept", "!! and !AB", "a 9:00 alone", "NEXT is no state here", "sched:2026-02-30 x", "due: empty",
        "#work", "C# and F# and # alone", "issue #12", "a #[[never closed", "#a:b has a colon", "#[[]] empty", "it is #done.", "see #work)",
        "Lunch #€", "#© mine", "#°C"
    ])
    func wordsThatAreNotTokensStay(line: String) {
        let c = CaptureLine(line, today: Self.today)
        #expect(c.title == line)
        #expect(c.extras == nil)
    }

    /// The title's trim, written without NSString, trims what Foundation's `CharacterSet` of a space trims, on
    /// strings made of spaces, combining marks (a space before one is a scalar of its own), other spaces
    /// and letters; and the lines that reach it: a token between spaces leaves one.
    @Test func theTitleIsTrimmedAsFoundationTrimsSpaces() {
        var random = SeededRandom(seed: 34)
        let pieces = [" ", " ", "\u{301}", "a", "é", "\u{A0}", "\t", "🦫", "e\u{301}", "\u{200B}"]
        var edgeCases = 0
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            if text.unicodeScalars.first == " " && text.count != text.unicodeScalars.count { edgeCases += 1 }
            #expect(CaptureLine.trimmingSpaces(text) == text.trimmingCharacters(in: CharacterSet(charactersIn: " ")), "\(Array(text.unicodeScalars))")
        }
        print("CaptureLine trim: \(edgeCases) of 2000 strings began with a space and held a combining sequence")
        #expect(edgeCases > 100)
        #expect(CaptureLine("  Buy   milk due:today  ", today: Self.today).title == "Buy   milk")
    }

    @Test func theOutlinesOwnStatesAndTheSummary() {
        let c = CaptureLine("NEXT Call !c due:mon 8:05", today: Self.today, workflow: Workflow(todo: ["TODO", "NEXT"], done: ["DONE"]))
        #expect(c.title == "Call")
        #expect(c.summary == "NEXT · priority C · due 2026-11-30 08:05")
        #expect(CaptureLine("Call #work", today: Self.today).summary == "#work")
        #expect(CaptureLine("plain", today: Self.today).summary == nil)
    }

    /// Days counted from 1970 agree with the calendar's weekday for four centuries around today.
    @Test func daysAgreeWithTheCalendar() throws {
        var day = try #require(CaptureLine.Day("1900-01-01"))
        var checked = 0
        while day.text < "2300-01-01" {
            let text = day.text
            #expect(CaptureLine.Day(text)?.days == day.days)
            #expect(OrgTimestamp.dayName(text) == ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][day.weekday], "\(text)")
            day = day.adding(days: 13)
            checked += 1
        }
        #expect(checked > 11_000)
    }
}
