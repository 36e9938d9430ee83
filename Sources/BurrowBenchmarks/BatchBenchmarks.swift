import Foundation
import GRDBSQLite
import ObjectGraph

/// Issue 35's batch operations: a batch update and a batch delete of `rows` rows through ObjectGraph (one
/// statement, its change-log entry, the change delivered to a results controller that shows the rows),
/// beside the same SQL through the C API on an identical file, alternated.
struct BatchBenchmarks {
    let rows: Int
    let runs: Int

    static let model: Model = {
        do {
            return try Model(version: 1) {
                Entity("List") {
                    Attribute("name", .string, default: "")
                    Attribute.count("taskCount", of: "tasks")
                    Relationship.toMany("tasks", "Task", inverse: "list", deleteRule: .cascade)
                }
                Entity("Task") {
                    Attribute("title", .string, default: "")
                    Attribute("done", .bool, default: false)
                    Relationship.toOne("list", "List", inverse: "tasks")
                }
            }
        } catch {
            fatalError("the batch benchmark's model is invalid: \(error)")
        }
    }()

    func run(only: Set<String>) throws {
        guard only.isEmpty || only.contains("batch") else { return }
        let dir = Harness.scratch("batch")
        try update(dir)
        try delete(dir)
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// A store of one list holding `rows` tasks, written by ObjectGraph so both sides have its schema.
    func filled(_ path: String) throws {
        let context = Context(store: try Store(path: path, model: Self.model))
        let list = try context.insert("List")
        list["name"] = "all"
        try context.saveWithoutUndo()
        let task = Self.model.entity("Task")!
        try context.transaction {
            let ids = try context.reserveObjectIDs(task, count: rows)
            var values: [[Value]] = []
            values.reserveCapacity(rows)
            for k in 0..<rows { values.append([.string("task \(k)"), .bool(false), .integer(list.objectID.rowID)]) }
            context.insertRows(task, ids: ids, values: values)
        }
    }

    func update(_ dir: String) throws {
        try update(dir, shown: false)
        try update(dir, shown: true)
    }

    func update(_ dir: String, shown isShown: Bool) throws {
        let ours = dir + "/update-ours\(isShown).sqlite", raw = dir + "/update-raw\(isShown).sqlite"
        try filled(ours)
        try filled(raw)
        let context = Context(store: try Store(path: ours, model: Self.model))
        let shown = ResultsController(context: context, request: FetchRequest("Task", sortedBy: [SortKey("title")]))
        var batches = 0
        if isShown {
            shown.onChange = { _ in batches += 1 }
            try shown.performFetch()
        }
        let sql = RawSQLite(path: raw)
        var done = false
        let (a, b) = try Harness.interleaved(runs: runs) {
            done.toggle()
            try context.batchUpdate(FetchRequest("Task"), set: ["done": .bool(done)])
        } baseline: {
            sql.exec("BEGIN IMMEDIATE; UPDATE \"Task\" SET \"done\" = \(done ? 1 : 0); COMMIT")
        }
        precondition(batches == (isShown ? runs : 0), "the controller did not get every batch update")
        Harness.report(
            isShown ? "  same, a controller showing the rows" : "batch update of \(rows) rows", ours: a, baseline: b,
            goal: isShown ? "(every row an update)" : "ratio <= 1.3")
    }

    func delete(_ dir: String) throws {
        var k = 0
        var ourPaths: [String] = [], rawPaths: [String] = []
        for _ in 0..<runs {
            k += 1
            ourPaths.append(dir + "/delete-ours\(k).sqlite")
            rawPaths.append(dir + "/delete-raw\(k).sqlite")
            try filled(ourPaths.last!)
            try filled(rawPaths.last!)
        }
        var next = 0, nextRaw = 0
        let (a, b) = try Harness.interleaved(runs: runs) {
            let context = Context(store: try Store(path: ourPaths[next], model: Self.model))
            next += 1
            let gone = try context.batchDelete(FetchRequest("Task"))
            precondition(gone.count == rows)
        } baseline: {
            let sql = RawSQLite(path: rawPaths[nextRaw])
            nextRaw += 1
            // The same work: the rows, and the count the store keeps of them.
            sql.exec("BEGIN IMMEDIATE; DELETE FROM \"Task\"; UPDATE \"List\" SET \"taskCount\" = 0; COMMIT")
        }
        Harness.report("batch delete of \(rows) rows (store opened each run)", ours: a, baseline: b, goal: "ratio <= 1.3")
    }
}
