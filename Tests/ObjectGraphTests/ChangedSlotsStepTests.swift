import Foundation
import GRDB
import TestSupport
import Testing

@testable import ObjectGraph

/// The history keeps an object a step changed (not inserted or deleted) as its changed slots only: a
/// rename of something holding a long text must not copy that text into the history, and undo and redo,
/// which only ever look at the slots that differ, must work as before. The outbox keeps whole rows.
@Suite struct ChangedSlotsStepTests {
    static let inserted = ObjectID(entity: 1, rowID: 7)
    static let changed = ObjectID(entity: 1, rowID: 8)
    static let deleted = ObjectID(entity: 0, rowID: 9)
    /// Entity 0's rows have 2 slots, entity 1's 4.
    static let widths = [2, 4]

    static func step(fingerprints: Bool = false) -> UndoRecord {
        var step = UndoRecord(name: "Mixed")
        step.append(inserted, before: nil, after: [.string("new"), .integer(5), .bool(false), .integer(1)])
        let long = String(repeating: "é", count: 5_000)
        step.append(
            changed, before: [.string(long), .integer(10), .bool(false), .integer(1)], after: [.string(long), .integer(10), .bool(true), .null])
        step.append(deleted, before: [.string("Home"), .integer(3)], after: nil)
        if fingerprints { step.appendFingerprinted([(ObjectID(entity: 1, rowID: 20), 99)]) }
        return step
    }

    @Test(arguments: [false, true])
    func changedSlotsRoundTripAndRefuseTruncation(fingerprints: Bool) throws {
        let step = Self.step(fingerprints: fingerprints)
        let bytes = step.encoded(changedOnly: true)
        #expect(Array(bytes.prefix(3)) == Array((fingerprints ? "OU4" : "OU3").utf8))
        // The long title is in neither side of the changed object.
        #expect(bytes.count < 80, "\(bytes.count) bytes")
        let back = try #require(UndoRecord.decode(bytes, name: "Mixed", widths: Self.widths))
        #expect(back.entries.map(\.id) == [Self.inserted, Self.changed, Self.deleted])
        #expect(back.entries[0].before == nil && back.entries[0].after == step.entries[0].after)
        #expect(back.entries[1].before == [.null, .null, .bool(false), .integer(1)])
        #expect(back.entries[1].after == [.null, .null, .bool(true), .null])
        #expect(back.entries[2].before == step.entries[2].before && back.entries[2].after == nil)
        #expect(back.fingerprinted.map(\.fingerprint) == (fingerprints ? [99] : []))
        for cut in 1..<bytes.count { #expect(UndoRecord.decode(Array(bytes.dropLast(cut)), name: "Mixed", widths: Self.widths) == nil, "cut \(cut)") }

        // The whole rows, for an outbox, in the older forms.
        let whole = step.encoded(changedOnly: false)
        #expect(Array(whole.prefix(3)) == Array((fingerprints ? "OU2" : "OU1").utf8))
        let full = try #require(UndoRecord.decode(whole, name: "Mixed", widths: Self.widths))
        #expect(full.entries.map(\.before) == step.entries.map(\.before) && full.entries.map(\.after) == step.entries.map(\.after))
    }

    /// Random steps of inserted, changed and deleted objects of random values: decoded, every inserted and
    /// deleted row is whole, and a changed object differs between before and after in exactly the slots
    /// that changed, with the same values (all that undo and redo read).
    @Test(arguments: TestSeed.seeds([0xC5A1, 0xC5A2, 0xC5A3]))
    func randomStepsKeepWhatUndoReads(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        func value() -> Value {
            switch rng.below(7) {
            case 0: .null
            case 1: .string(String(repeating: "é x", count: rng.below(40)))
            case 2: .integer(Int64(rng.below(1_000_000)) - 500_000)
            case 3: .double(Double(rng.below(1000)) / 7)
            case 4: .bool(rng.below(2) == 0)
            case 5: .data(Data((0..<rng.below(30)).map { UInt8($0) }))
            default: .date(Date(timeIntervalSince1970: Double(rng.below(1_000_000_000))))
            }
        }
        for round in 0..<200 {
            var step = UndoRecord(name: "r\(round)")
            let widths = (0..<3).map { _ in 1 + rng.below(12) }
            for k in 0..<(1 + rng.below(6)) {
                let entity = rng.below(3), width = widths[entity]
                let row = (0..<width).map { _ in value() }
                var other = row
                for i in 0..<width where rng.below(3) == 0 { other[i] = value() }
                let id = ObjectID(entity: entity, rowID: Int64(k * 1000 + rng.below(1000)))
                switch rng.below(3) {
                case 0: step.append(id, before: nil, after: row)
                case 1: step.append(id, before: row, after: nil)
                default: step.append(id, before: row, after: other)
                }
            }
            let bytes = step.encoded(changedOnly: true)
            let back = try #require(UndoRecord.decode(bytes, name: step.name, widths: widths), "round \(round); \(TestSeed.note(seed))")
            #expect(back.entries.count == step.entries.count)
            for (was, now) in zip(step.entries, back.entries) {
                #expect(was.id == now.id)
                guard let b = was.before, let a = was.after else {
                    #expect(was.before == now.before && was.after == now.after, "round \(round); \(TestSeed.note(seed))")
                    continue
                }
                let nb = try #require(now.before), na = try #require(now.after)
                #expect(nb.count == b.count && na.count == a.count)
                for i in b.indices {
                    if b[i] != a[i] {
                        #expect(nb[i] == b[i] && na[i] == a[i], "round \(round) slot \(i); \(TestSeed.note(seed))")
                    } else {
                        #expect(nb[i] == na[i], "round \(round) slot \(i); \(TestSeed.note(seed))")
                    }
                }
            }
        }
    }

    /// A step that changed no object keeps the form older builds read.
    @Test func aStepWithoutAChangedObjectKeepsTheOlderForm() {
        var step = UndoRecord(name: "Add")
        step.append(Self.inserted, before: nil, after: [.string("a")])
        #expect(Array(step.encoded(changedOnly: true).prefix(3)) == Array("OU1".utf8))
    }

    /// Bytes another program wrote: the changed-slots flag where the magic does not allow it, with other
    /// flags, for an entity the model lacks, with a row of another width than its entity's (a few bytes must
    /// not make a million slots), or a slot past the row, are refused, not read.
    @Test func damagedChangedSlotsAreRefused() {
        func bytes(_ magic: String, _ flags: UInt8, _ rest: [UInt8], entity: UInt8 = 1) -> [UInt8] {
            Array(magic.utf8) + [1, entity, 16, flags] + rest
        }
        func decode(_ b: [UInt8]) -> UndoRecord? { UndoRecord.decode(b, name: "x", widths: Self.widths) }
        // One changed slot (1 of 4): before false, after true.
        let good: [UInt8] = [4, 1, 1, 4, 5]
        #expect(decode(bytes("OU3", 11, good)) != nil)
        #expect(decode(bytes("OU1", 11, good)) == nil)
        #expect(decode(bytes("OU3", 15, good)) == nil)
        #expect(decode(bytes("OU3", 11, good, entity: 2)) == nil)
        #expect(decode(bytes("OU3", 11, good, entity: 0)) == nil)
        #expect(decode(bytes("OU3", 11, [3, 1, 1, 4, 5])) == nil)
        #expect(decode(bytes("OU3", 11, [0xFF, 0xFF, 0x3F, 0, 1, 4, 5])) == nil)
        #expect(decode(bytes("OU3", 11, [4, 1, 4, 4, 5])) == nil)
        #expect(decode(bytes("OU3", 11, [4, 5, 1, 4, 5])) == nil)
        // 100,000 objects of 65,536 slots each (13 billion values) in 700 KB: refused at the first.
        let object: [UInt8] = [1, 16, 11, 0x80, 0x80, 0x04, 0]
        let bomb = Array("OU3".utf8) + [0xA0, 0x8D, 0x06] + (0..<100_000).flatMap { _ in object }
        #expect(decode(bomb) == nil)
    }

    /// Through a store: marking done a task whose title is 50,000 characters records a step of a few bytes;
    /// its undo and redo leave alone a title changed meanwhile by another connection.
    @Test func aChangeBesideALongTextIsSmallAndUndoesBesideOtherChanges() throws {
        let (dir, t, theirs) = try TaskWorld.withSecondConnection("objectgraph-changedslots")
        defer { withExtendedLifetime(dir) {} }
        let long = String(repeating: "long title ", count: 4_546)
        t.h[0]["title"] = .string(long)
        try t.context.saveWithoutUndo()
        t.h[0]["done"] = true
        try t.context.save(actionName: "Done")
        let entry = try #require(try t.context.undoHistory.entries().first)
        #expect(entry.name == "Done" && entry.size < 100, "\(entry.size) bytes")

        let mine = try theirs.fetch(TaskModel.tasks(of: theirs.object(for: t.home.objectID)))[0]
        mine["title"] = "short now"
        try theirs.saveWithoutUndo()
        #expect(try theirs.undo() == "Done")
        _ = try t.store.poll()
        let a = t.h[0].objectID.rowID, home = Value.integer(t.home.objectID.rowID)
        #expect(try TaskModel.rows(t.store)[a] == [.string("short now"), .integer(10), .bool(false), home])
        #expect(try t.context.redo() == "Done")
        #expect(try TaskModel.rows(t.store)[a] == [.string("short now"), .integer(10), .bool(true), home])

        // A change elsewhere to a slot the step changed, to neither of its values, is still a conflict.
        t.h[2]["position"] = 35
        try t.context.save(actionName: "Move")
        _ = try theirs.store.poll()
        try theirs.fetch(TaskModel.tasks(of: theirs.object(for: t.home.objectID))).first { $0["title"] == "c" }?["position"] = 99
        try theirs.saveWithoutUndo()
        _ = try t.store.poll()
        #expect(throws: UndoConflict.self) { try t.context.undo() }
    }
}
