import ObjectGraph
import TestSupport
import Testing

@testable import Outline

/// Matching typed letters against titles: in order, any case, Unicode characters whole; closer together and
/// at word starts ranks higher; and the index of every title the move picker filters.
@Suite struct FuzzyMatchTests {
    @Test func theQuerysCharactersInOrderAnyCase() {
        #expect(FuzzyMatch("mlk").score("Milk") != nil)
        #expect(FuzzyMatch("MILK").score("oat milk") != nil)
        #expect(FuzzyMatch("mk").score("Kim") == nil, "order matters")
        #expect(FuzzyMatch("milkk").score("Milk") == nil, "each character once")
        #expect(FuzzyMatch("x").score("") == nil)
        #expect(FuzzyMatch("").score("anything") == 0)
        #expect(FuzzyMatch("").isEmpty && FuzzyMatch(" ").isEmpty)
        #expect(FuzzyMatch("oat milk").score("Oatmeal with milk") != nil, "blanks in the query are left out")
        #expect(FuzzyMatch("pro jects").score("Projects") != nil)
    }

    @Test func togetherAndAtWordStartsRankHigher() throws {
        func score(_ q: String, _ t: String) throws -> Int { try #require(FuzzyMatch(q).score(t), "\(q) in \(t)") }
        #expect(try score("work", "Work") > score("work", "W o r k"))
        #expect(try score("work", "Work") > score("work", "Homework"))
        #expect(try score("gm", "Groceries milk") > score("gm", "Angmar"))
        #expect(try score("ab", "ab") > score("ab", "ab and a lot more words after it"))
        #expect(try score("milk", "Milk") > score("milk", "Buy milk"))
        // A tight “ab” after a loose one is found: the first letters found are not the best window.
        #expect(try score("ab", "xa--b ab") == score("ab", "xa--- ab"))
    }

    @Test func unicodeIsComparedByCharacter() {
        #expect(FuzzyMatch("é").score("ÉCOLE") != nil)
        #expect(FuzzyMatch("café").score("Cafe\u{301} noir") != nil, "a decomposed é is the same character")
        #expect(FuzzyMatch("cafe").score("Café") == nil, "an accent is not ignored")
        #expect(FuzzyMatch("cb").score("Crème brûlée") != nil)
        #expect(FuzzyMatch("🇫🇷").score("Trip 🇫🇷 2026") != nil)
        #expect(FuzzyMatch("🇫").score("Trip 🇫🇷") == nil, "half a flag is not in it")
        #expect(FuzzyMatch("日本").score("日本語の本") != nil)
        #expect(FuzzyMatch("e").score("e\u{301}") == nil, "e with an accent is another character")
        // Control characters are characters like any other: matching never trips on them.
        #expect(FuzzyMatch("ab").score("a\u{1B}[2Jb") != nil)
    }

    private func outline() throws -> Outline {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let top = try o.append(titles: ["Work", "Groceries", "Home"], to: try o.root())
        try o.append(titles: ["Milk", "Oat milk"], to: top[1])
        try o.append("Homework", to: top[2])
        try o.append("Milkshake", to: try o.children(of: top[2])[0])
        try o.save()
        return o
    }

    @Test func theIndexHoldsEveryItemInOutlineOrderWithItsPath() throws {
        let o = try outline()
        let index = try o.titleIndex()
        #expect(index.titles == ["Burrow", "Work", "Groceries", "Milk", "Oat milk", "Home", "Homework", "Milkshake"])
        #expect(try index.ids[0] == o.rootRow().id)
        #expect(index.path(of: 0) == [] && index.path(of: 7) == ["Burrow", "Home", "Homework"])
        let home = index.positions(of: [try o.item(at: "Home").objectID])
        #expect(home == [5])
        #expect((0..<index.count).filter { index.isWithin($0, home) } == [5, 6, 7])
    }

    @Test func bestMatchesFirstTiesInOutlineOrderNarrowedAsTypingGoesOn() throws {
        let index = try outline().titleIndex()
        let m = index.matches(FuzzyMatch("m"))
        #expect(m.map(\.position) == [3, 4, 5, 6, 7], "outline order")
        let milk = index.matches(FuzzyMatch("milk"), among: m)
        #expect(milk == index.matches(FuzzyMatch("milk")), "narrowing gives what a full scan gives")
        #expect(TitleIndex.best(milk, limit: 10).map { index.titles[Int($0.position)] } == ["Milk", "Milkshake", "Oat milk"])
        #expect(TitleIndex.best(milk, limit: 1).map(\.position) == [3])
        // Equal scores: the first in the outline first, however many there are.
        let all = index.matches(FuzzyMatch(""))
        #expect(all.count == 8)
        #expect(TitleIndex.best(all, limit: 3).map(\.position) == [0, 1, 2])
        #expect(TitleIndex.best(all, limit: 100).map(\.position) == Array(0..<8))
        #expect(TitleIndex.best(all, limit: 0).isEmpty && TitleIndex.best([], limit: 5).isEmpty)
    }

    /// `best` against a plain sort, on random scores with many ties.
    @Test(arguments: TestSeed.seeds([1, 2, 3]))
    func bestIsTheTopOfAFullSort(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        for _ in 0..<50 {
            let n = Int(rng.next() % 300)
            let matches = (0..<n).map { TitleIndex.Match(position: Int32($0), score: Int32(rng.next() % 7)) }
            let limit = Int(rng.next() % 40)
            let sorted = matches.sorted { ($0.score, -$0.position) > ($1.score, -$1.position) }
            #expect(TitleIndex.best(matches, limit: limit) == Array(sorted.prefix(limit)), "\(rng.note)")
        }
    }
}
