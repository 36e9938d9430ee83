import TestSupport
import Testing

@testable import ObjectGraph

/// The 32-byte records a results controller places incoming rows by must never order two rows against
/// their keys: they order them as the keys do, or leave it to the keys (compare 0) when the rows' bytes agree
/// for 32 bytes. Rows here often do (texts of 20–40 shared bytes), and the records are kept through removals
/// and insertions as the list is.
@Suite struct ListKeyRecordsTests {
    /// `SortKeyBytesTests`' values, and texts long enough to agree past a record's 32 bytes.
    static func value(_ random: inout SeededRandom, slot: Int) -> Value {
        guard random.below(2) == 0 else { return SortKeyBytesTests.randomValue(&random, slot: slot) }
        let stem = String(repeating: "x", count: [0, 20, 29, 31, 40][random.below(5)])
        return .string(stem + ["a", "b", "", "a\u{0}", "é"][random.below(5)])
    }

    @Test(arguments: TestSeed.seeds([1, 2, 3]))
    func recordsOrderRowsAsTheirKeysOrLeaveItToThem(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var decided = 0, undecided = 0, refused = 0, unfit = 0, placed = 0
        for _ in 0..<150 {
            let slots = 1 + random.below(2)
            let ascending = (0..<slots).map { _ in random.below(2) == 0 }
            let idAscending = random.below(2) == 0
            func before(_ a: ([Value], Int64), _ b: ([Value], Int64)) -> Bool {
                for i in 0..<slots {
                    let c = Value.compare(a.0[i], b.0[i])
                    if c != 0 { return ascending[i] ? c < 0 : c > 0 }
                }
                return idAscending ? a.1 < b.1 : a.1 > b.1
            }
            var nextID: Int64 = -20
            func row() -> ([Value], Int64) {
                nextID += 1 + Int64(random.below(3))
                return ((0..<slots).map { Self.value(&random, slot: $0) }, nextID)
            }
            var rows = (0..<(2 + random.below(40))).map { _ in row() }.sorted(by: before)
            guard var records = ListKeyRecords(rows.map(\.0), of: rows.map(\.1), ascending: ascending, idAscending: idAscending) else {
                refused += 1
                continue
            }
            for (j, b) in rows.enumerated() {
                let written = records.record(b.0, b.1)
                let record = try #require(written)
                #expect(records.records[j] == record)
                for i in rows.indices where i != j {
                    let c = records.compare(at: i, with: record)
                    if c == 0 {
                        undecided += 1
                    } else {
                        decided += 1
                        #expect((c < 0) == before(rows[i], b), "\(rows[i]) against \(b), \(random.note)")
                    }
                }
            }
            // Some rows out, others in at their places: each position keeps its row's record.
            let out = rows.indices.filter { _ in random.below(4) == 0 }
            records.remove(atAscending: out)
            rows = rows.enumerated().filter { !out.contains($0.offset) }.map(\.element)
            var incoming: [([Value], Int64)] = [], incomingRecords: [ListKeyRecords.Record] = []
            for candidate in (0..<random.below(12)).map({ _ in row() }).sorted(by: before) {
                guard let r = records.record(candidate.0, candidate.1) else {
                    unfit += 1
                    continue
                }
                incoming.append(candidate)
                incomingRecords.append(r)
            }
            let places = incoming.map { new in rows.firstIndex { !before($0, new) } ?? rows.count }
            records.insert(incomingRecords, at: places)
            for (j, p) in places.enumerated().reversed() { rows.insert(incoming[j], at: p) }
            placed += incoming.count
            #expect(records.count == rows.count)
            for (p, r) in rows.enumerated() {
                let written = records.record(r.0, r.1)
                #expect(records.records[p] == written)
            }
        }
        print(
            "list key records, \(random.note): \(decided) pairs decided by records, \(undecided) left to the keys, "
                + "\(refused) lists refused, \(placed) rows placed, \(unfit) unfit")
        #expect(undecided > 100 && decided > 1_000 && placed > 100, "the generator did not make the cases")
    }

    /// Through a controller: hundreds of tasks whose titles agree for 40 bytes come in from another
    /// connection in batches, some retitled or deleted meanwhile, and every batch applied to the old list
    /// gives a fresh fetch, with the records still describing the list they were kept for.
    @Test(arguments: TestSeed.seeds([4, 5]))
    func aControllerPlacesRowsByRecordsAndKeys(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let (dir, t, theirs) = try TaskWorld.withSecondConnection("objectgraph-key-records")
        defer { withExtendedLifetime(dir) {} }
        let request = FetchRequest("Task", where: Property("list") == t.home, sortedBy: [SortKey("title")])
        let controller = ResultsController(context: t.context, request: request)
        let recorder = try ResultsRecorder(controller)
        let theirHome = try #require(try theirs.existingObject(for: t.home.objectID))
        let shared = String(repeating: "a long shared beginning ", count: 2)
        func title() -> String { random.below(2) == 0 ? shared + "\(random.below(50))" : "\(random.below(50)) short" }
        var made: [ManagedObject] = []
        var keptThrough = 0
        for round in 0..<12 {
            for _ in 0..<(round == 0 ? 200 : 5 + random.below(40)) {
                made.append(try theirs.addTask(title(), to: theirHome, at: Int64(random.below(1_000))))
            }
            for _ in 0..<random.below(6) {
                guard let task = random.pick(made) else { break }
                if random.below(2) == 0 {
                    task["title"] = .string(title())
                } else {
                    theirs.delete(task)
                    made.removeAll { $0 === task }
                }
            }
            try theirs.saveWithoutUndo()
            _ = try t.store.poll()
            _ = recorder.take()
            try recorder.checkAgainstFetch(t.store)
            if round > 0, controller.keyRecords?.describes(controller.storage.rowIDs) == true { keptThrough += 1 }
        }
        #expect(recorder.failures == [], "\(random.note)")
        #expect(keptThrough >= 9, "the records were dropped along the way (\(keptThrough) of 11 batches)")
    }
}
