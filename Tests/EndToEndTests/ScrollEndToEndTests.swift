import Foundation
import TestSupport
import Testing

/// A long level scrolled by keys in a real terminal (tmux): the terminal moves the rows itself (ncurses'
/// scroll region) and only what is new is sent. Whatever the keys, the list shows consecutive items with the
/// selected one among them, and flags (drawn over their stand-ins, past ncurses) stay whole where they move.
@Suite(.onAThreadOfItsOwn("end-to-end"))
struct ScrollEndToEndTests {
    @Test func aScrolledListShowsConsecutiveItemsAndWholeFlags() throws {
        let count = 150
        let items: [[String: Any]] = (1...count).map { i in
            ["title": String(format: "item %03d", i) + (i % 7 == 0 ? " \u{1F1EB}\u{1F1F7} fr" : ""), "children": [[String: Any]]()]
        }
        let (tmux, _) = try Tmux.outliner(importing: items, width: 40, height: 12)
        try #require(tmux.waitFor(text: "1/\(count)") != nil, "\(tmux.screen())")

        var rng = SeededRandom(seed: 7)
        var selected = 1
        var checked = 0
        for step in 0..<120 {
            // Mostly down at first, then both ways: one row at a time, as a held key scrolls.
            let down = step < 40 || Bool.random(using: &rng)
            let next = min(count, max(1, selected + (down ? 1 : -1)))
            guard next != selected else { continue }
            try tmux.send(down ? "j" : "k")
            selected = next
            let position = " \(selected)/\(count)"
            guard let screen = tmux.waitFor(text: position) else {
                Issue.record("step \(step): \(selected)/\(count) never shown: \(tmux.screen())")
                return
            }
            // Wait for the frame's last write (a flag drawn over its stand-in comes after ncurses' refresh) and
            // for the terminal's answer on flags (stand-ins until then): a stand-in that stays fails below.
            let settled =
                tmux.waitFor(timeout: .seconds(5)) { s in
                    s.contains { $0.contains(position) } && !s.contains { $0.contains("\u{3000}") || $0.contains("\u{FFFD}") }
                } ?? screen
            let numbers = settled.compactMap { row -> Int? in
                guard let range = row.range(of: #"item \d{3}"#, options: .regularExpression) else { return nil }
                return Int(row[range].dropFirst(5))
            }
            #expect(!numbers.isEmpty && numbers == Array(numbers[0]..<numbers[0] + numbers.count), "step \(step): \(settled)")
            #expect(numbers.contains(selected), "step \(step): \(selected) not shown: \(settled)")
            for row in settled where row.contains("item ") {
                guard let n = numbers.first(where: { row.contains(String(format: "item %03d", $0)) }) else { continue }
                if n % 7 == 0 {
                    #expect(row.contains("item \(String(format: "%03d", n)) \u{1F1EB}\u{1F1F7} fr"), "step \(step): \(row.debugDescription)")
                } else {
                    #expect(!row.contains("fr"), "step \(step): \(row.debugDescription)")
                }
            }
            checked += 1
        }
        #expect(checked > 100)
        try tmux.send("q")
        #expect(tmux.waitFor(text: "exit=0") != nil)
    }
}
