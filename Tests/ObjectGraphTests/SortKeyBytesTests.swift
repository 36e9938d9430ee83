import Foundation
import TestSupport
import Testing

@testable import ObjectGraph

/// The bytes a results controller sorts big changes by must order rows exactly as `Value.compare` and the
/// request's directions do (ties by ID): random rows of every kind of value, ascending and descending.
@Suite struct SortKeyBytesTests {
    static func randomValue(_ random: inout SeededRandom, slot: Int) -> Value {
        switch random.below(slot == 0 ? 4 : 7) {
        case 0: return .null
        case 1: return .integer(Int64(random.below(7)) - 3)
        case 2: return .string(["", "a", "a\u{0}", "a\u{0}b", "a\u{1}", "ab", "b", "é", "Z"][random.below(9)])
        case 3: return .data(Data([[], [0], [0, 0], [0, 1], [1], [255]][random.below(6)]))
        case 4: return .double([-2.5, -0.0, 0.0, 1.5, 3, -1e300, 1e300][random.below(7)])
        case 5: return .integer([Int64.min, Int64.max, 1 << 53, -(1 << 53)][random.below(4)])
        default: return .integer(Int64(random.below(3)))
        }
    }

    @Test(arguments: TestSeed.seeds([1, 2, 3, 4]))
    func bytesOrderRowsAsValuesDo(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var byBytes = 0, refused = 0
        for _ in 0..<200 {
            let slots = 1 + random.below(3)
            let ascending = (0..<slots).map { _ in random.below(2) == 0 }
            let idAscending = ascending.last!
            var rows: [([Value], Int64)] = []
            for k in 0..<(2 + random.below(40)) {
                var keys: [Value] = []
                for slot in 0..<slots { keys.append(Self.randomValue(&random, slot: slot)) }
                rows.append((keys, Int64(k * 7 % 41) - 20))
            }
            func before(_ a: ([Value], Int64), _ b: ([Value], Int64)) -> Bool {
                for i in 0..<slots {
                    let c = Value.compare(a.0[i], b.0[i])
                    if c != 0 { return ascending[i] ? c < 0 : c > 0 }
                }
                return idAscending ? a.1 < b.1 : a.1 > b.1
            }
            guard let bytes = SortKeyBytes(rows, ascending: ascending, idAscending: idAscending) else {
                refused += 1
                continue
            }
            byBytes += 1
            let expected = rows.sorted(by: before).map(\.1)
            let got = bytes.sortedIndexes().map { rows[$0].1 }
            if got != expected { Issue.record("\(rows) \(ascending): \(got), not \(expected) \(random.note)") }
        }
        // Doubles beside integers past 2^53 cannot be written exactly: those sets are sorted by value instead.
        #expect(byBytes > 50 && refused > 0, "\(byBytes) sorted by bytes, \(refused) refused")
    }
}
