import TestSupport
import Testing

@testable import ObjectGraph

@Suite struct IdentityMapTests {
    static let model = try! Model {
        Entity("A") { Attribute("n", .integer64, default: 0) }
        Entity("B") { Attribute("n", .integer64, default: 0) }
    }

    /// Random inserts, replacements and removals agree with a dictionary, through several resizes and
    /// with clustered, strided and tied (same row ID, other entity) keys, which stress the probing and the
    /// backward-shift removal.
    @Test func agreesWithADictionary() {
        let entities = Self.model.entities
        var rng = SeededRandom(seed: TestSeed.seed(1))
        let map = IdentityMap()
        var reference: [ObjectID: ManagedObject] = [:]
        let keys: [Int64] = Array(1...3000) + (0..<500).map { Int64($0) * 4096 } + [0, -1, Int64.max, Int64.min]
        for step in 0..<40_000 {
            let id = ObjectID(entity: Int.random(in: 0...1, using: &rng), rowID: keys.randomElement(using: &rng)!)
            if Int.random(in: 0..<3, using: &rng) == 0 {
                map[id] = nil
                reference[id] = nil
            } else {
                let o = ManagedObject(entity: entities[id.entity], objectID: id)
                map[id] = o
                reference[id] = o
            }
            if step % 997 == 0 {
                #expect(map.count == reference.count, "step \(step), \(rng.note)")
                #expect(reference.allSatisfy { map[$0.key] === $0.value }, "step \(step), \(rng.note)")
            }
        }
        #expect(map.count == reference.count, "\(rng.note)")
        for k in keys {
            for e in 0...1 {
                let id = ObjectID(entity: e, rowID: k)
                #expect(map[id] === reference[id], "\(id), \(rng.note)")
            }
        }
        #expect(Set(map.values.map(\.objectID)) == Set(reference.keys), "\(rng.note)")
        map.reserveCapacity(100_000)
        #expect(reference.allSatisfy { map[$0.key] === $0.value }, "after reserving, \(rng.note)")
    }
}
