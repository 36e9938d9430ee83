import Foundation
import TestSupport
import Testing

@testable import ObjectGraph

/// Rows read by ID come back in the order asked, nil for a missing one, whether the IDs are read as ranges
/// (runs of consecutive IDs) or in IN lists: random mixes of runs, scattered IDs, duplicates, deleted and
/// never-made IDs, checked against reading each ID alone.
@Suite struct RowsByIDTests {
    @Test(arguments: TestSeed.seeds([1, 2]))
    func rowsComeBackInTheOrderAsked(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let store = try Store(inMemoryWith: TaskModel.model)
        let c = Context(store: store)
        let list = try c.addList("L")
        var ids: [Int64] = []
        for k in 0..<400 { ids.append(try c.addTask("t\(k)", to: list, at: Int64(k)).objectID.rowID) }
        try c.saveWithoutUndo()
        // Holes inside runs: deleted rows read as nil.
        for k in stride(from: 7, to: 400, by: 53) { c.delete(try #require(try c.existingObject(for: ObjectID(entity: 1, rowID: ids[k])))) }
        try c.saveWithoutUndo()
        let task = try #require(store.model.entity("Task"))
        var ranged = 0
        for _ in 0..<40 {
            var asked: [Int64] = []
            for _ in 0..<(1 + random.below(6)) {
                switch random.below(4) {
                case 0, 1:
                    let start = random.below(400), length = 1 + random.below(120)
                    asked += ids[start..<min(400, start + length)]
                case 2: asked.append(ids[random.below(400)])
                default: asked.append([0, -5, Int64.max, ids[399] + 1 + Int64(random.below(50))][random.below(4)])
                }
            }
            if random.below(2) == 0 { asked.shuffle(using: &random) }
            if asked.sorted().chunked(whereConsecutive: true) >= SQLiteStore.rangeReadMinimum { ranged += 1 }
            let together = try store.backend.rows(of: task, ids: asked, layout: task.wholeRow)
            let alone = try asked.map { try store.backend.rows(of: task, ids: [$0], layout: task.wholeRow)[0] }
            #expect(together.count == asked.count)
            #expect(zip(together, alone).allSatisfy { $0 == $1 }, "\(asked)")
        }
        print("RowsByIDTests seed \(seed): requests with a run read as a range \(ranged) of 40")
        #expect(ranged > 10)
    }
}

extension [Int64] {
    /// The longest stretch of consecutive values in this sorted array.
    fileprivate func chunked(whereConsecutive: Bool) -> Int {
        var best = 0, run = 0
        for (k, v) in enumerated() {
            run = k > 0 && self[k - 1] < Int64.max && v == self[k - 1] + 1 ? run + 1 : 1
            best = Swift.max(best, run)
        }
        return best
    }
}
