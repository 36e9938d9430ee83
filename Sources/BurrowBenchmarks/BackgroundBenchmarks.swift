import Foundation
import GRDBSQLite
import ObjectGraph
import Synchronization

/// Issue 35's background context: a `BackgroundContext` inserts `rows` objects (whole objects, saved in slices
/// of `slice`) while this thread runs a key loop on a results controller that shows every one of them (sorted
/// by a title the inserts scatter through the list): each frame polls the store (taking in the slices saved
/// since the last frame, as batches), moves the selection and reads a screenful of rows. Reported: the
/// slowest frame and the 99th percentile beside the same loop's frames with nothing imported (goal: no frame
/// over 16 ms), and the import's time beside the same rows inserted through the C API with nobody reading.
struct BackgroundBenchmarks {
    let rows: Int
    let slice: Int
    let runs: Int

    /// A key every 16 ms: a key held down at a fast repeat rate, the pace at which each frame has the most
    /// slices to take in that a user could see.
    static let frameInterval = 0.016

    func run(only: Set<String>) throws {
        guard only.isEmpty || only.contains("background") else { return }
        let dir = Harness.scratch("background")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let median = { (v: [Double]) in Harness.percentile(v, 0.5) }
        var idleWorst: [Double] = [], raw: [Double] = []
        // Free: the background saves as fast as it can. Paced: each save waits until this thread has taken it in
        // (`BackgroundContext(sharingFileOf:paced:)`).
        for (name, paced) in [("free", false), ("paced", true)] {
            var worst: [Double] = [], p99: [Double] = [], imports: [Double] = []
            var framesOver = 0, framesSeen = 0
            for run in 0..<runs {
                let path = dir + "/\(name)\(run).sqlite"
                let (frames, importSeconds) = try importWhileDrawing(path, paced: paced)
                worst.append(frames.max() ?? 0)
                p99.append(Harness.percentile(frames, 0.99))
                framesOver += frames.filter { $0 > 0.016 }.count
                framesSeen += frames.count
                imports.append(importSeconds)
                if !paced {
                    idleWorst.append(try idleFrames(path).max() ?? 0)
                    raw.append(try rawImport(dir + "/raw\(run).sqlite"))
                }
            }
            Harness.report(
                "slowest frame, background inserting \(rows) (\(name))", ours: median(worst), baseline: median(idleWorst),
                goal: "<= 16 ms (\(framesOver) of \(framesSeen) frames over)")
            Harness.report("  99th percentile frame", ours: median(p99), baseline: median(idleWorst), goal: "(baseline: slowest idle frame)")
            Harness.report("  the import, slices of \(slice)", ours: median(imports), baseline: median(raw), goal: "(raw: C API, nobody reading)")
        }
    }

    /// The import on a background context while this thread draws; every frame's time and the import's.
    private func importWhileDrawing(_ path: String, paced: Bool) throws -> (frames: [Double], importSeconds: Double) {
        let context = Context(store: try Store(path: path, model: BatchBenchmarks.model))
        let list = try context.insert("List")
        list["name"] = "all"
        try context.saveWithoutUndo()
        let listID = list.objectID
        let controller = ResultsController(context: context, request: FetchRequest("Task", sortedBy: [SortKey("title")]))
        var batches = 0
        controller.onChange = { _ in batches += 1 }
        try controller.performFetch()
        let finished = Atomic<Bool>(false), importTime = Mutex<Double>(0)
        let background = try BackgroundContext(sharingFileOf: context.store, paced: paced)
        let (rows, slice) = (self.rows, self.slice)
        background.perform(
            { bg in
                let start = DispatchTime.now().uptimeNanoseconds
                var random = SystemRandomNumberGenerator()
                let list = bg.object(for: listID)
                var made = 0
                while made < rows {
                    for _ in 0..<min(slice, rows - made) {
                        let task = try bg.insert("Task")
                        task["title"] = .string("task \(UInt32.random(in: 0...UInt32.max, using: &random))")
                        task.setObject(list, for: "list")
                        made += 1
                    }
                    try bg.saveWithoutUndo()
                }
                importTime.withLock { $0 = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
                finished.store(true, ordering: .releasing)
            },
            failed: { error in
                print("background import failed: \(error)")
                finished.store(true, ordering: .releasing)
            })
        var frames: [Double] = []
        var selection = 0
        var last = false
        while !last {
            last = finished.load(ordering: .acquiring)
            let start = DispatchTime.now().uptimeNanoseconds
            try context.store.poll()
            selection = try drawFrame(controller, selection)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            frames.append(seconds)
            if seconds < Self.frameInterval { usleep(UInt32((Self.frameInterval - seconds) * 1e6)) }
        }
        precondition(controller.numberOfRows(inSection: 0) == rows, "the controller shows \(controller.numberOfRows(inSection: 0)) of \(rows) rows")
        precondition(batches > 0, "no batch reached the controller")
        return (frames, importTime.withLock { $0 })
    }

    /// The same key loop on the imported store with nothing writing: the frames a user sees anyway.
    private func idleFrames(_ path: String) throws -> [Double] {
        let context = Context(store: try Store(path: path, model: BatchBenchmarks.model))
        let controller = ResultsController(context: context, request: FetchRequest("Task", sortedBy: [SortKey("title")]))
        controller.onChange = { _ in }
        try controller.performFetch()
        var frames: [Double] = [], selection = 0
        for _ in 0..<200 {
            let start = DispatchTime.now().uptimeNanoseconds
            try context.store.poll()
            selection = try drawFrame(controller, selection)
            frames.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return frames
    }

    /// One key: the selection moves down, and the screenful of rows around it is read.
    private func drawFrame(_ controller: ResultsController, _ selection: Int) throws -> Int {
        let count = controller.numberOfSections == 0 ? 0 : controller.numberOfRows(inSection: 0)
        guard count > 0 else { return 0 }
        let next = (selection + 1) % count
        let top = max(0, min(next - 12, count - 24))
        var width = 0
        for k in top..<min(count, top + 24) { width += (controller.object(at: ResultIndex(0, k))["title"] as String).utf8.count }
        precondition(width > 0)
        return next
    }

    /// The rows through the C API on a store of the same schema, in slices of the same size, nobody reading.
    private func rawImport(_ path: String) throws -> Double {
        let context = Context(store: try Store(path: path, model: BatchBenchmarks.model))
        let list = try context.insert("List")
        try context.saveWithoutUndo()
        let listRow = list.objectID.rowID
        let sql = RawSQLite(path: path)
        return Harness.time {
            var made = 0, id: Int64 = 1_000
            while made < rows {
                sql.exec("BEGIN IMMEDIATE")
                let statement = sql.prepare("INSERT INTO \"Task\" (id, \"title\", \"done\", \"list\") VALUES (?, ?, 0, ?)")
                for _ in 0..<min(slice, rows - made) {
                    id += 1
                    sqlite3_bind_int64(statement, 1, id)
                    sql.bind(statement, 2, "task \(UInt32.random(in: 0...UInt32.max))")
                    sqlite3_bind_int64(statement, 3, listRow)
                    sql.step(statement)
                    made += 1
                }
                sqlite3_finalize(statement)
                sql.exec("UPDATE \"List\" SET \"taskCount\" = \(made) WHERE id = \(listRow); COMMIT")
            }
        }
    }
}
