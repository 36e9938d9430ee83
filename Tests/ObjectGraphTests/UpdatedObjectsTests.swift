import Foundation
import TestSupport
import Testing

@testable import ObjectGraph

/// A change set's updated objects keep a batch update's rows as sorted runs instead of a dictionary; read,
/// merged and trimmed in any order they must answer exactly as the dictionary of object to mask would, and
/// the change log must carry them to another process unchanged.
@Suite struct UpdatedObjectsTests {
    static func randomRun(_ random: inout SeededRandom, entity: Int) -> [Int64] {
        var ids = Set<Int64>()
        let n = 1 + random.below(40)
        while ids.count < n {
            switch random.below(8) {
            case 0: ids.insert([Int64.min, Int64.max, -1, 0, Int64.min + 1, Int64.max - 1][random.below(6)])
            case 1: ids.insert(Int64(bitPattern: random.next()))
            default: ids.insert(Int64(random.below(120)))
            }
        }
        return ids.sorted().shuffled(using: &random)  // sorted first: a set's order changes between runs
    }

    static func randomMask(_ random: inout SeededRandom) -> PropertyMask {
        PropertyMask(rawValue: UInt64(1 + random.below(15)) << UInt64(random.below(3)))
    }

    /// A save after flushed rows drops the updates of objects it inserts (an insert says all about them) and
    /// keeps every other: above, below and between the inserted row IDs, of the same entity or another.
    @Test(arguments: TestSeed.seeds([11, 12, 13]))
    func updatesOfInsertedObjectsAreDroppedAndNoOther(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var between = 0, outside = 0, ofInserted = 0, noneInRange = 0
        for _ in 0..<300 {
            var changes = ChangeSet()
            var inserted = Set<ObjectID>()
            for _ in 0..<(1 + random.below(3)) {
                let entity = random.below(2)
                let start = Int64(random.below(100)), step = Int64(1 + random.below(3))
                let ids = (0..<(1 + random.below(30))).map { ObjectID(entity: entity, rowID: start + Int64($0) * step) }
                changes.insert(contentsOf: ids)
                inserted.formUnion(ids)
            }
            var updates: [ObjectID: PropertyMask] = [:]
            for _ in 0..<(1 + random.below(6)) {
                let entity = random.below(2)
                let id = ObjectID(entity: entity, rowID: Int64(random.below(200)) - 20)
                let mask = Self.randomMask(&random)
                changes.update(id, mask)
                updates[id, default: []].formUnion(mask)
            }
            if random.below(3) == 0 {
                let entity = random.below(2)
                let run = ChangeSet(entity: entity, updated: Self.randomRun(&random, entity: entity), mask: Self.randomMask(&random))
                changes.formUnion(run)
                for (id, mask) in run.entities[entity]!.updated { updates[id, default: []].formUnion(mask) }
            }
            let expected = updates.filter { !inserted.contains($0.key) }
            var got: [ObjectID: PropertyMask] = [:]
            let dropped = changes.droppingUpdatesOfInserted()
            for (_, c) in dropped.entities { for (id, mask) in c.updated { got[id, default: []].formUnion(mask) } }
            #expect(got == expected, "\(TestSeed.note(seed))")
            #expect(dropped.insertedCount == changes.insertedCount)
            for (id, _) in updates {
                let same = inserted.filter { $0.entity == id.entity }.map(\.rowID)
                if inserted.contains(id) {
                    ofInserted += 1
                } else if let low = same.min(), let high = same.max(), low <= id.rowID, id.rowID <= high {
                    between += 1
                } else {
                    outside += 1
                }
            }
            if updates.keys.allSatisfy({ !inserted.contains($0) }) { noneInRange += 1 }
        }
        print(
            "droppingUpdatesOfInserted, seed \(seed): \(ofInserted) updates of inserted objects, \(between) between inserted IDs,"
                + " \(outside) outside them; \(noneInRange) of 300 sets held no update of an inserted object")
        #expect(ofInserted > 50 && between > 50 && outside > 50)
    }

    @Test(arguments: TestSeed.seeds([1, 2, 3, 4]))
    func mergedAndTrimmedTheyReadAsADictionary(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var keptAsRuns = 0, spread = 0
        for _ in 0..<60 {
            var objects = UpdatedObjects()
            var model: [ObjectID: PropertyMask] = [:]
            for _ in 0..<(1 + random.below(12)) {
                let entity = random.below(2)
                switch random.below(4) {
                case 0:
                    let id = ObjectID(entity: entity, rowID: Int64(random.below(120)))
                    let mask = Self.randomMask(&random)
                    objects.formUnion(id, mask)
                    model[id, default: []].formUnion(mask)
                case 1, 2:
                    let ids = Self.randomRun(&random, entity: entity)
                    let mask = Self.randomMask(&random)
                    let runsBefore = objects.runs.count
                    objects.formUnion(UpdatedObjects(entity: entity, rowIDs: ids, mask: mask))
                    if objects.runs.count > runsBefore { keptAsRuns += 1 } else if runsBefore > 0 && objects.runs.isEmpty { spread += 1 }
                    for id in ids { model[ObjectID(entity: entity, rowID: id), default: []].formUnion(mask) }
                default:
                    let gone = Set(model.keys.sorted { ($0.entity, $0.rowID) < ($1.entity, $1.rowID) }.filter { _ in random.below(3) == 0 })
                    objects = objects.removing(gone)
                    for id in gone { model[id] = nil }
                }
                try Self.check(objects, against: model, &random)
            }
        }
        print("UpdatedObjectsTests seed \(seed): runs kept \(keptAsRuns), runs spread into entries \(spread)")
        #expect(keptAsRuns > 50 && spread > 10, "the generator must reach both ways of merging runs")
    }

    static func check(_ objects: UpdatedObjects, against model: [ObjectID: PropertyMask], _ random: inout SeededRandom) throws {
        #expect(objects.count == model.count && objects.isEmpty == model.isEmpty)
        var seen: [ObjectID: PropertyMask] = [:]
        for (id, mask) in objects {
            #expect(seen[id] == nil, "\(id) twice")
            seen[id] = mask
        }
        #expect(seen == model)
        #expect(Set(objects.keys) == Set(model.keys) && objects.allKeys.count == model.count && Set(objects.allKeys) == Set(model.keys))
        for (id, mask) in model { #expect(objects[id] == mask) }
        for _ in 0..<10 {
            let id = ObjectID(entity: random.below(2), rowID: Int64(random.below(130)))
            #expect(objects[id] == model[id])
        }
        #expect(objects == UpdatedObjects(model) && UpdatedObjects(model) == objects)
        if let (id, mask) = model.first {
            var other = model
            other[id] = mask.union(PropertyMask(rawValue: 1 << 40))
            #expect(objects != UpdatedObjects(other))
        }
    }

    @Test(arguments: TestSeed.seeds([5, 6, 7]))
    func theLogCarriesRunsToAnotherReader(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let model = TaskModel.model
        var withRuns = 0, idRuns = 0, truncationsRefused = 0
        /// Inserted or deleted IDs: a few scattered, or stretches that rise (an import's, a batch delete's).
        func ids(_ entity: Int, base: Int64) -> [ObjectID] {
            var out: [ObjectID] = []
            for _ in 0..<random.below(4) {
                var id = base + Int64(random.below(1000))
                for _ in 0..<(random.below(5) == 0 ? 1 + random.below(9) : 1) {
                    out.append(ObjectID(entity: entity, rowID: id))
                    id &+= random.below(5) == 0 ? Int64(bitPattern: random.next() >> 2) : 1 + Int64(random.below(3))
                }
            }
            return out
        }
        /// True when `ids` rises for four IDs in a row somewhere: the log writes those as one record.
        func risesForFour(_ ids: [ObjectID]) -> Bool {
            var run = 1
            for (a, b) in zip(ids, ids.dropFirst()) {
                run = b.rowID > a.rowID ? run + 1 : 1
                if run >= 4 { return true }
            }
            return false
        }
        for round in 0..<120 {
            var changes = ChangeSet()
            var rising = false
            for entity in 0..<2 {
                let inserted = ids(entity, base: 0), deleted = ids(entity, base: 1 << 40)
                for id in inserted { changes.insert(id) }
                for id in deleted { changes.delete(id) }
                rising = rising || risesForFour(inserted) || risesForFour(deleted)
            }
            for _ in 0..<random.below(3) {
                changes.update(ObjectID(entity: random.below(2), rowID: Int64(random.below(1000)) + 4000), Self.randomMask(&random))
            }
            var runOnly: ChangeSet?
            switch random.below(4) {
            case 0: break
            case 1:
                // A batch delete's rows alone.
                var deleted = ChangeSet()
                deleted.delete(contentsOf: Self.randomRun(&random, entity: 1).sorted().map { ObjectID(entity: 1, rowID: $0) })
                runOnly = deleted
                for id in deleted[1].deleted { changes.delete(id) }
                rising = rising || risesForFour(changes[1].deleted)
            default:
                let entity = random.below(2)
                let run = ChangeSet(entity: entity, updated: Self.randomRun(&random, entity: entity), mask: Self.randomMask(&random))
                changes.formUnion(run)
                runOnly = run
            }
            let hasRuns = rising || changes.entities.values.contains { !$0.updated.runs.isEmpty }
            if hasRuns { withRuns += 1 }
            if rising { idRuns += 1 }
            let author = round % 3 == 0 ? "someone" : nil
            let bytes = ChangeLog.encode(changes, model: model, author: author)
            #expect(bytes.starts(with: Array((hasRuns ? "OG2" : "OG1").utf8)), "older readers must not misread runs")
            let read = try #require(ChangeLog.decodeEntry(bytes, model: model))
            #expect(read.author == author)
            #expect(read.changes.entities.filter { !$0.value.isEmpty } == changes.entities.filter { !$0.value.isEmpty })
            // A run cut short anywhere is refused, never read as fewer or other rows.
            if let runOnly, runOnly.updatedCount + runOnly.deletedCount >= 4 {
                let bytes = ChangeLog.encode(runOnly, model: model, author: author)
                let names = runOnly.entities.keys.map { model.entities[$0].name.utf8.count + 2 }.reduce(0, +)
                let header = 3 + 16 + 2 + names + (author.map { ChangeLog.authorPrefix.count + $0.utf8.count + 2 } ?? 0)
                #expect(ChangeLog.decodeEntry(Array(bytes[..<header]), model: model)?.changes.isEmpty == true)
                for cut in (header + 1)..<bytes.count {
                    #expect(ChangeLog.decodeEntry(Array(bytes[..<cut]), model: model) == nil, "cut at \(cut) of \(bytes.count)")
                    truncationsRefused += 1
                }
            }
        }
        print(
            "UpdatedObjectsTests log seed \(seed): entries with runs \(withRuns) (rising inserts or deletes \(idRuns)), "
                + "truncated runs refused \(truncationsRefused)")
        #expect(withRuns > 60 && withRuns < 110 && idRuns > 30 && truncationsRefused > 1000, "both forms, with runs and without")
    }
}
