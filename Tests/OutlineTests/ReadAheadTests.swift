import Foundation
import Testing

@testable import Outline

/// `ReadAhead`: a reader on its own thread, its output handed over a batch at a time, in order, never
/// more than `capacity` batches ahead; its error after what it emitted; stopped when the caller gives up.
@Suite struct ReadAheadTests {
    /// The most batches the reader was ahead of the caller, seen from the reader's side.
    final class Gauge: @unchecked Sendable {
        // @unchecked: touched only under `lock`.
        private let lock = NSLock()
        private var emitted = 0
        private var taken = 0
        private(set) var most = 0
        func emit() {
            lock.lock()
            emitted += 1
            most = max(most, emitted - taken)
            lock.unlock()
        }
        func take(_ n: Int) {
            lock.lock()
            taken += n
            lock.unlock()
        }
        var read: Int {
            lock.lock()
            defer { lock.unlock() }
            return emitted
        }
    }

    @Test(arguments: [1, 7, 4096]) func everythingComesInOrderAndTheOutcomeAfter(batch: Int) throws {
        let ahead = ReadAhead<Int, String>(batch: batch, capacity: 2) { emit in
            for i in 0..<10_000 { try emit(i) }
            return "done"
        }
        defer { ahead.finish() }
        var all: [Int] = []
        while let b = try ahead.next() {
            #expect(b.count <= batch)
            all += b
        }
        #expect(all == Array(0..<10_000))
        #expect(ahead.outcome == "done")
        #expect(try ahead.next() == nil, "the end stays the end")
    }

    @Test func theReaderNeverRunsMoreThanCapacityBatchesAhead() throws {
        let gauge = Gauge()
        let ahead = ReadAhead<Int, Void>(batch: 10, capacity: 3) { emit in
            for i in 0..<5_000 {
                // Counted in elements: a batch is handed over when its tenth arrives.
                gauge.emit()
                try emit(i)
            }
        }
        defer { ahead.finish() }
        var n = 0
        while let b = try ahead.next() {
            // A slow caller: the reader fills its room and waits.
            usleep(200)
            gauge.take(b.count)
            n += b.count
        }
        #expect(n == 5_000)
        // Three batches waiting, one in the caller's hands (not yet counted as taken) and one filled,
        // waiting for room.
        #expect(gauge.most <= 3 * 10 + 10 + 10, "read \(gauge.most) elements ahead")
        #expect(gauge.most > 10, "the reader did run ahead")
    }

    struct Broken: Error, Equatable { let at: Int }

    @Test func theReadersErrorComesAfterWhatItEmitted() throws {
        let ahead = ReadAhead<Int, Void>(batch: 100, capacity: 2) { emit in
            for i in 0..<1_234 { try emit(i) }
            throw Broken(at: 1_234)
        }
        defer { ahead.finish() }
        var all: [Int] = []
        #expect(throws: Broken(at: 1_234)) {
            while let b = try ahead.next() { all += b }
        }
        #expect(all == Array(0..<1_234), "every element emitted before the error is handed over first")
        #expect(ahead.outcome == nil)
    }

    @Test func aCallerThatGivesUpStopsTheReader() throws {
        let gauge = Gauge()
        let ahead = ReadAhead<Int, Void>(batch: 10, capacity: 1) { emit in
            // Would run forever if nothing stopped it.
            var i = 0
            while true {
                gauge.emit()
                try emit(i)
                i += 1
            }
        }
        _ = try ahead.next()
        ahead.finish()
        let stoppedAt = gauge.read
        #expect(stoppedAt < 100, "the reader waited for room, then stopped")
        usleep(10_000)
        #expect(gauge.read == stoppedAt, "and its thread has ended")
        ahead.finish()
    }
}
