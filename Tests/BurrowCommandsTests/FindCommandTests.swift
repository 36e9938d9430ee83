import Foundation
import Outline
import TestSupport
import Testing

@testable import BurrowCommands

/// `burrow find`: folded matching in titles and notes, outline order, `--limit`, JSON, hostile titles.
@Suite struct FindCommandTests {
    private func shell() -> Shell {
        let sh = Shell()
        sh.run("add", "Groceries", "Reading")
        sh.run("add", "Milk", "Oat MILK", "--under", "Groceries")
        sh.run("add", "Gödel, Escher, Bach", "--under", "Reading")
        sh.run("add", "Breakfast")
        sh.run("note", "Breakfast", "porridge with milk")
        return sh
    }

    @Test func printsHitsInOutlineOrderWithTheirPaths() throws {
        let sh = shell()
        let (code, out, err) = sh.run("find", "milk")
        #expect(code == 0, "\(err)")
        let lines = out.split(separator: "\n").map(String.init)
        try #require(lines.count == 3)
        #expect(lines[0].hasPrefix("#") && lines[0].hasSuffix("  Groceries › Milk"))
        #expect(lines[1].hasSuffix("  Groceries › Oat MILK"))
        #expect(lines[2].hasSuffix("  Breakfast  (in the note)"), "the hit is in the note, not the title")
        #expect(sh.run("find", "GODEL").1.hasSuffix("  Reading › Gödel, Escher, Bach\n"))
        #expect(sh.run("find", "milk", "--limit", "1").1.split(separator: "\n").count == 1)
        // No hit: status 1 and nothing on stdout, as grep; the sentence on stderr.
        #expect(sh.run("find", "nowhere") == (1, "", "(nothing contains “nowhere”)\n"))
        #expect(sh.run("find", "milk", "--limit", "0").0 == 2)
        #expect(sh.run("find", "").0 == 2)
    }

    /// With `--limit N` the hits are found in order before they are counted (a common word), or counted
    /// first (a rare one): either way they are the first N lines of the whole list, in notes too.
    @Test func aLimitGivesTheFirstHitsOfTheWholeList() throws {
        let sh = Shell()
        var rng = SeededRandom(seed: 7)
        let words = ["common", "middling", "rare", "Ünïcode"]
        func title(_ n: Int) -> String {
            var t = "item \(n)"
            if n % 2 == 0 { t += " common" }
            if n % 17 == 0 { t += " middling" }
            if n % 97 == 0 { t += " rare" }
            if n % 31 == 0 { t += " unicode" }
            return t
        }
        var n = 0
        for top in 0..<6 {
            sh.run("add", "Top \(top) common")
            for _ in 0..<(40 + rng.below(40)) {
                n += 1
                sh.run("add", title(n), "--under", "Top \(top) common")
            }
            // Thirty more one level down, under an item near the end of this part.
            let parent = "Top \(top) common/" + title(n - 2)
            sh.run("add", "-", "--under", parent, stdin: (1...30).map { title(n + $0) }.joined(separator: "\n"))
            n += 30
        }
        sh.run("note", "Top 3 common", "a rare note")
        // Which way each limited search went: its hits in order before the count, or counted first.
        var walkedFirst = 0, countedFirst = 0
        do {
            let o = try Outline(readingAt: sh.db)
            for word in words {
                for limit in [1, 2, 5, 10, 40, 1_000] {
                    let results = try o.find(word, firstScreen: limit)
                    try results.load(upTo: limit)
                    if results.isCounted { countedFirst += 1 } else { walkedFirst += 1 }
                }
            }
        }
        print("find --limit: \(walkedFirst) searches found their hits before counting, \(countedFirst) counted first")
        #expect(walkedFirst >= 5 && countedFirst >= 5)
        var compared = 0
        for word in words {
            let all = sh.run("find", word).1.split(separator: "\n").map(String.init)
            #expect(!all.isEmpty, "\(word)")
            for limit in [1, 2, 5, 10, 40, 1_000] {
                let some = sh.run("find", word, "--limit", "\(limit)").1.split(separator: "\n").map(String.init)
                #expect(some == Array(all.prefix(limit)), "\(word) --limit \(limit)")
                compared += 1
            }
        }
        #expect(compared == 24)
    }

    @Test func printsJSON() throws {
        let sh = shell()
        let (code, out, _) = sh.run("find", "milk", "--json")
        #expect(code == 0)
        let hits = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]])
        #expect(hits.map { $0["title"] as? String } == ["Milk", "Oat MILK", "Breakfast"])
        try #require(hits.count == 3)
        #expect(hits[0]["path"] as? [String] == ["Groceries"])
        #expect(hits[2]["path"] as? [String] == [])
        #expect(hits[2]["note"] as? String == "porridge with milk")
        #expect(hits[0]["note"] == nil && hits[0]["done"] as? Bool == false)
        #expect(sh.run("find", "nowhere", "--json") == (1, "[]\n", ""))
    }

    @Test func hostileTitlesAreOneSafeLineOnATerminalAndExactInJSON() throws {
        let sh = Shell()
        sh.run("add", "evil\u{1b}]0;owned\u{7}\ntitle")
        sh.outIsTerminal = true
        let out = sh.run("find", "evil").1
        #expect(out.split(separator: "\n").count == 1)
        #expect(!out.contains("\u{1b}"))
        sh.outIsTerminal = false
        let json = sh.run("find", "evil", "--json").1
        let hits = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(hits.first?["title"] as? String == "evil\u{1b}]0;owned\u{7}\ntitle")
    }

    /// `rm Title` in a level of many siblings reads the one item named, through the (parent, title) index.
    @Test func pathsByTitleInALargeLevel() throws {
        let sh = Shell()
        let o = try Outline(path: sh.db)
        let root = try o.root().objectID
        _ = try o.perform("Add") { try o.add((0..<20_000).map { OutlineNode("sibling \($0)") }, under: root) }
        #expect(sh.run("rm", "sibling 12345").0 == 0)
        #expect(sh.run("find", "sibling 12345") == (1, "", "(nothing contains “sibling 12345”)\n"))
        #expect(sh.run("rm", "sibling x").2.contains("no item “sibling x” in the top level; it has “sibling 0”"))
    }
}
