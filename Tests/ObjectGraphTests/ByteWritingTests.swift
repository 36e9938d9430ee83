import Foundation
import TestSupport
import Testing

@testable import ObjectGraph

/// The hand-written byte writers against the plain code they replaced: `ByteWriter` (one buffer, not an
/// array append per byte) against appends to an array, and `SQLiteStore.jsonArray` against
/// `map(String.init).joined`. A byte out of place is an undo step that no longer decodes, or a delete of other
/// rows than asked.
@Suite struct ByteWritingTests {
    /// The writer as it was: every write an append to an array.
    struct ArrayWriter {
        var bytes: [UInt8] = []
        mutating func varint(_ v: UInt64) {
            var v = v
            while v >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
                v >>= 7
            }
            bytes.append(UInt8(v))
        }
        mutating func signed(_ v: Int64) { varint(UInt64(bitPattern: (v << 1) ^ (v >> 63))) }
        mutating func fixed(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    }

    /// Random writes of every kind, from the smallest buffer (16 bytes), so that every kind of write meets
    /// the end of the buffer many times (a varint's ten bytes, eight fixed ones, a run longer than the buffer).
    @Test(arguments: 0..<40)
    func randomWritesMatchAppendsToAnArray(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        var ours = ByteWriter(capacity: 1)
        var plain = ArrayWriter()
        var kinds = [0, 0, 0, 0, 0, 0]
        for _ in 0..<Int.random(in: 1...600, using: &rng) {
            let kind = Int.random(in: 0..<6, using: &rng)
            kinds[kind] += 1
            switch kind {
            case 0:
                let b = UInt8.random(in: 0...255, using: &rng)
                ours.byte(b)
                plain.bytes.append(b)
            case 1:
                // Every length of varint: a random number of bits.
                let v = UInt64.random(in: 0...UInt64.max, using: &rng) >> UInt64.random(in: 0...63, using: &rng)
                ours.varint(v)
                plain.varint(v)
            case 2:
                let v = Int64.random(in: Int64.min...Int64.max, using: &rng) >> Int64.random(in: 0...63, using: &rng)
                ours.signed(v)
                plain.signed(v)
            case 3:
                let v = UInt64.random(in: 0...UInt64.max, using: &rng)
                ours.fixed(v)
                plain.fixed(v)
            case 4:
                let run = (0..<Int.random(in: 0...300, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                ours.append(run)
                plain.bytes += run
            default:
                // A scratch writer reused: what was written goes, the buffer stays.
                if Int.random(in: 0..<8, using: &rng) == 0 {
                    ours.removeAll()
                    plain.bytes.removeAll()
                }
            }
            #expect(ours.count == plain.bytes.count)
        }
        #expect(ours.bytes == plain.bytes)
        #expect(ours.withBytes { Array($0) } == plain.bytes)
        if seed == 0 { print("ByteWritingTests writes by kind (byte, varint, signed, fixed, run, reset):", kinds) }
    }

    /// A step with a long text and long data round-trips: the string and the bytes are copied in one run
    /// each, past the first buffer.
    @Test func aStepWithLongValuesRoundTrips() {
        var step = UndoRecord(name: "Long")
        let long = String(repeating: "ü∑x", count: 10_000)
        let data = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        for k in 0..<50 {
            step.append(
                ObjectID(entity: 0, rowID: Int64(k)), before: nil,
                after: [.string(k % 2 == 0 ? long : "short"), .data(data), .integer(Int64(-k)), .double(Double(k) / 3), .bool(k % 3 == 0)])
        }
        let bytes = step.encoded(changedOnly: true)
        let back = UndoRecord.decode(bytes, name: "Long", widths: [5])
        #expect(back?.entries.count == 50)
        #expect(back?.entries.map(\.after) == step.entries.map(\.after))
        #expect(back?.encoded(changedOnly: true) == bytes)
    }

    @Test func idListsAreTheJSONOfTheirNumbers() {
        func plain(_ ids: [Int64]) -> String { "[" + ids.map(String.init).joined(separator: ",") + "]" }
        let edges: [[Int64]] = [
            [], [0], [7], [-1], [9, 10, 99, 100, 999, 1000], [Int64.max], [Int64.min], [Int64.min, -9, 0, 9, Int64.max],
            [1_000_000_000_000_000_000, -1_000_000_000_000_000_000]
        ]
        for ids in edges { #expect(SQLiteStore.jsonArray(ids) == plain(ids)) }
        var rng = SeededRandom(seed: 7)
        let many = (0..<20_000).map { _ in Int64.random(in: Int64.min...Int64.max, using: &rng) >> Int64.random(in: 0...63, using: &rng) }
        #expect(SQLiteStore.jsonArray(many) == plain(many))
        #expect(SQLiteStore.jsonArray(many[100..<200]) == plain(Array(many[100..<200])))
    }
}
