import TestSupport
import Testing

@testable import Outline

@Suite struct OrderKeyTests {
    @Test func basicKeys() {
        #expect(OrderKey.between(nil, nil) == "a0")
        #expect(OrderKey.between("a0", nil) == "a1")
        #expect(OrderKey.between(nil, "a0") == "Zz")
        #expect(OrderKey.between("a0", "a1") == "a0V")
        #expect(OrderKey.between("az", nil) == "b00")
        #expect(OrderKey.between("a0", "a0V") == "a0G")
    }

    @Test func appendsStayShort() {
        let keys = OrderKey.keys(after: nil, count: TestScale.size(ci: 1_000_000, big: 1_000_000, small: 100_000))
        #expect(keys == keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(Set(keys).count == keys.count)
        #expect(keys.map(\.count).max()! <= 5)
    }

    /// Random insertions between random neighbours keep the list strictly sorted and every key valid.
    @Test(arguments: TestSeed.seeds([1, 2, 3, 42]))
    func randomInsertionsKeepOrder(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        var keys: [String] = []
        for _ in 0..<3000 {
            let i = rng.below(keys.count + 1)
            let k = OrderKey.between(i > 0 ? keys[i - 1] : nil, i < keys.count ? keys[i] : nil)
            #expect(OrderKey.isValid(k), "\(rng.note): \(k)")
            if i > 0 { #expect(keys[i - 1].utf8.lexicographicallyPrecedes(k.utf8), "\(rng.note)") }
            if i < keys.count { #expect(k.utf8.lexicographicallyPrecedes(keys[i].utf8), "\(rng.note)") }
            keys.insert(k, at: i)
        }
    }

    @Test func repeatedInsertAtTheTopAndInTheSameGap() {
        var first = "a0"
        for _ in 0..<10_000 {
            let k = OrderKey.between(nil, first)
            #expect(k < first)
            first = k
        }
        #expect(first.count <= 5)
        var lo = "a0", hi = "a1"
        for _ in 0..<200 {
            let k = OrderKey.between(lo, hi)
            #expect(lo < k && k < hi)
            hi = k
        }
    }

    @Test func invalidNeighboursAreIgnored() {
        #expect(OrderKey.between("", nil) == "a0")
        #expect(OrderKey.between("a0", "garbage!") == "a1")
        #expect(OrderKey.isValid("a10") == false)
        #expect(OrderKey.isValid("b1") == false)
    }
}
