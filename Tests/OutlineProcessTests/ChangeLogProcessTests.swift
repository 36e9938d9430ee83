import Foundation
import TestSupport
import Testing

@testable import ObjectGraph
@testable import Outline

/// Real `burrow` processes add (each add's change-log entry kept in its history row), undo, and clear the
/// history at the same moment, while this process polls: every entry must reach it in order, none lost with
/// the history rows that held them (which would make it re-read everything), and its list must be a fresh
/// fetch at every batch.
@Suite(.serialized, .onAThreadOfItsOwn("processes")) struct ChangeLogProcessTests {
    @Test func entriesReachAReaderWhileTheHistoryIsUndoneAndCleared() throws {
        let folder = TemporaryDirectory("burrow-changelog")
        let db = folder.path()
        #expect(BurrowProcess.run(["add", "P", "--db", db]).status == 0)
        let reader = try Outline(path: db)
        let level = try ResultsRecorder(ResultsController(context: reader.context, request: Outline.level(of: try reader.item(at: "P"))))
        let perWorker = 20
        // A poll about every 80 ms, so that several commands (a clear among them) come between two.
        var ticks = 0, polls = 0
        let poll = {
            ticks += 1
            if ticks % 4 == 0 {
                _ = try reader.context.store.poll()
                polls += 1
            }
        }
        let failures = try BurrowProcess.concurrently(3, meanwhile: poll) { w -> [String] in
            var failures: [String] = []
            for k in 0..<perWorker {
                let r: BurrowProcess.Result
                switch (w, k % 4) {
                case (2, 0): r = BurrowProcess.run(["history", "--clear", "--db", db])
                case (2, _): r = BurrowProcess.run(["undo", "--db", db])
                default: r = BurrowProcess.run(["add", "w\(w)-\(k)", "--under", "P", "--db", db])
                }
                // An undo with nothing left to undo (cleared a moment before) may fail; nothing else may.
                if r.status != 0 && !(w == 2 && k % 4 != 0) { failures.append("worker \(w) step \(k): exit \(r.status): \(r.err)") }
            }
            return failures
        }
        #expect(failures.flatMap { $0 } == [])
        // At least twice while they ran (60 commands: a slow machine polls more often, a fast one less).
        #expect(polls >= 2, "the reader polled \(polls) times while they ran")
        try reader.context.store.poll()
        try level.checkAgainstFetch(reader.context.store)
        #expect(level.failures == [])
        #expect(reader.context.store.resynchronizations == 0, "an entry went missing")
        #expect(level.controller.count == (try reader.children(of: try reader.item(at: "P")).count))
    }
}
