import Foundation
import GRDBSQLite
import ObjectGraph
import Outline

/// The undo history kept in the store (issue 16): a subtree of 100,000 items deleted and its delete undone,
/// each beside the same SQL on the raw C API (a recursive delete of the rows and their search-index rows; both
/// inserted again, the index's text folded beforehand), and a single
/// edit with its action recorded beside the same edit saved without one.
struct HistoryBenchmarks {
    /// The subtree: one item with `branches` sub-items of `leaves` each.
    let branches: Int
    let leaves: Int
    let runs: Int
    let edits: Int

    func run(only: Set<String>) throws {
        guard only.isEmpty || only.contains("history") else { return }
        let dir = Harness.scratch("history")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // BURROW_HISTORY_PART=subtree or edits runs one part alone (for callgrind).
        let part = ProcessInfo.processInfo.environment["BURROW_HISTORY_PART"]
        if part == nil || part == "subtree" { try subtree(dir) }
        if part == nil || part == "edits" { try singleEdits(dir) }
    }

    private func subtree(_ dir: String) throws {
        let storage = StorageBenchmarks(levelSize: 0, hugeLevel: 0, runs: 1, edits: 0)
        let path = storage.emptyStore(dir, "subtree")
        let outline = try Outline(path: path)
        let root = try outline.root()
        let nodes = [
            OutlineNode(
                "big",
                children: (0..<branches).map { b in
                    OutlineNode("branch \(b)", children: (0..<leaves).map { OutlineNode("leaf \($0) of \(b) quick brown fox") })
                })
        ]
        try outline.perform("Import") { _ = try outline.add(nodes, under: root.objectID) }
        let count = 1 + branches * (1 + leaves)
        let top = try outline.child(of: root, at: 0)!.objectID
        let sql = RawSQLite(path: path)
        let saved = StorageBenchmarks.readRawItems(sql)
        precondition(saved.count == count)
        // The search index's rows (folded text), which our side keeps in the same transactions: the raw side
        // deletes and re-inserts them too, so both write the same tables.
        let folded = saved.map { row in (row.0, TextFolding.fold(row.1), String?.none) }.sorted { $0.0 < $1.0 }
        precondition(folded.count == count)
        let gone = folded.first!.0...folded.last!.0
        precondition(gone.count == count, "the subtree's IDs are one run (as the import reserved them)")
        // Raw: the same rows deleted by the parent key at every depth, then put back.
        func rawDelete() -> Double {
            Harness.time {
                sql.exec(
                    """
                    BEGIN IMMEDIATE;
                    CREATE TEMP TABLE IF NOT EXISTS gone (id INTEGER PRIMARY KEY);
                    DELETE FROM gone;
                    WITH RECURSIVE sub(id) AS (SELECT \(top.rowID) UNION ALL SELECT Item.id FROM Item JOIN sub ON Item.parent = sub.id)
                    INSERT INTO gone SELECT id FROM sub;
                    DELETE FROM Item WHERE id IN gone;
                    UPDATE Item SET childCount = childCount - 1 WHERE id = 1;
                    """)
                RawTextIndex.remove(sql, ids: gone)
                sql.exec("COMMIT")
            }
        }
        func rawInsert() -> Double {
            Harness.time {
                sql.exec("BEGIN IMMEDIATE")
                StorageBenchmarks.insertRawItems(sql, saved)
                let index = RawTextIndex(sql)
                for (id, title, note) in folded { index.add(id, title: title, note: note) }
                index.finish()
                sql.exec("UPDATE Item SET childCount = childCount + 1 WHERE id = 1")
                sql.exec("COMMIT")
            }
        }
        var ours: (delete: [Double], undo: [Double]) = ([], []), raw: (delete: [Double], insert: [Double]) = ([], [])
        for _ in 0..<runs {
            ours.delete.append(try Harness.time { try outline.perform("Delete “big”") { try outline.delete(top) } })
            ours.undo.append(try Harness.time { try outline.context.undo() })
            raw.delete.append(rawDelete())
            raw.insert.append(rawInsert())
            outline.context.refreshAll()
            try outline.context.undoHistory.clear()
        }
        Harness.report(
            "delete a subtree of \(count) items", ours: Harness.percentile(ours.delete, 0.5),
            baseline: Harness.percentile(raw.delete, 0.5), goal: "ratio <= 1.5")
        Harness.report(
            "undo the delete of \(count) items", ours: Harness.percentile(ours.undo, 0.5),
            baseline: Harness.percentile(raw.insert, 0.5), goal: "ratio <= 1.5")
        try inTheOutliner(path, dir: dir, count: count, rawDelete: rawDelete, rawInsert: rawInsert)
    }

    /// As the user meets it: the release `burrow` on the same store in a pseudo-terminal, `x` on the subtree
    /// (the level's first row) until the status line says it is deleted, then `u` until it says it is undone,
    /// each run alternated with the same SQL (`rawDelete`, `rawInsert`) on the same file. Each side starts
    /// with the machine quiet: the outliner idle (its checkpoint of the last action done) and the disk
    /// synced, so neither side pays for what the other left behind, and a slower stretch of the machine
    /// lands on both.
    private func inTheOutliner(_ path: String, dir: String, count: Int, rawDelete: () -> Double, rawInsert: () -> Double) throws {
        guard let burrow = Harness.sibling("burrow") else {
            print("  delete and undo in the outliner: skipped (build the outliner beside the benchmark: swift build -c release)")
            return
        }
        let outliner = try LiveBenchmarks.Outliner(burrow: burrow, existing: path, dir: dir)
        defer { outliner.pty.stop() }
        var delete: [Double] = [], undo: [Double] = [], raw: (delete: [Double], insert: [Double]) = ([], [])
        for _ in 0..<runs {
            for (key, shown) in [("x", "Deleted “big”"), ("u", "Undid")] {
                outliner.settle()
                let start = DispatchTime.now().uptimeNanoseconds
                outliner.send(key)
                guard let seen = outliner.wait(timeout: 60, until: { $0.rows.contains { $0.hasPrefix(shown) } }) else {
                    throw PseudoTerminal.Failure(
                        "the outliner did not show “\(shown)” after \(key):\n" + outliner.screen.rows.joined(separator: "\n"))
                }
                (key == "x" ? { delete.append(Double(seen - start) / 1e9) } : { undo.append(Double(seen - start) / 1e9) })()
            }
            outliner.settle()
            raw.delete.append(rawDelete())
            outliner.settle()
            raw.insert.append(rawInsert())
        }
        if ProcessInfo.processInfo.environment["BURROW_DEBUG_RUNS"] != nil {
            print(delete.map { Harness.ms($0) }, raw.delete.map { Harness.ms($0) }, undo.map { Harness.ms($0) }, raw.insert.map { Harness.ms($0) })
        }
        Harness.report(
            "in the outliner: delete \(count) items (x)", ours: Harness.percentile(delete, 0.5),
            baseline: Harness.percentile(raw.delete, 0.5), goal: "ratio <= 1.5")
        Harness.report(
            "in the outliner: undo it (u)", ours: Harness.percentile(undo, 0.5), baseline: Harness.percentile(raw.insert, 0.5),
            goal: "ratio <= 1.5")
    }

    /// A rename of one item in a level of 1,000, recorded as an action or not, alternated.
    private func singleEdits(_ dir: String) throws {
        let path = StorageBenchmarks(levelSize: 0, hugeLevel: 0, runs: 1, edits: 0).emptyStore(dir, "edits")
        let outline = try Outline(path: path)
        let root = try outline.root()
        let ids = try outline.perform("Add") { try outline.append(titles: (0..<1000).map { "item \($0)" }, to: root.objectID) }
        let history = outline.context.undoHistory
        var recorded: [Double] = [], plain: [Double] = []
        // BURROW_EDITS_ONLY=recorded or plain makes every rename one kind (for callgrind: the two runs'
        // difference over `edits * 2` renames is what recording costs one).
        let onlyEdits = ProcessInfo.processInfo.environment["BURROW_EDITS_ONLY"]
        for k in 0..<(edits * 2) {
            let id = ids[(k * 37) % ids.count]
            history.recordsActions = onlyEdits == "recorded" ? true : onlyEdits == "plain" ? false : k % 2 == 0
            let t = try Harness.time { try outline.perform("Rename") { try outline.rename(id, to: "renamed \(k)") } }
            if k % 2 == 0 { recorded.append(t) } else { plain.append(t) }
        }
        history.recordsActions = true
        if ProcessInfo.processInfo.environment["BURROW_DEBUG_RUNS"] != nil {
            for q in [0.1, 0.25, 0.5, 0.75, 0.9] {
                print(q, Harness.ms(Harness.percentile(recorded, q)), Harness.ms(Harness.percentile(plain, q)))
            }
        }
        Harness.report(
            "rename one item, recorded for undo (vs not)", ours: Harness.percentile(recorded, 0.5),
            baseline: Harness.percentile(plain, 0.5), goal: "ratio <= 1.05")
    }
}
