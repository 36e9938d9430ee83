import Foundation
import GRDBSQLite
import ObjectGraph
import Outline

/// Issue 2's storage scenarios: bulk insert, fetching a level, and single edits in a huge level.
struct StorageBenchmarks {
    let levelSize: Int
    let hugeLevel: Int
    let runs: Int
    let edits: Int

    /// Every column our inserts write, the two times included (the raw side writes a fixed time: the same
    /// storage work as binding one).
    static let columns = #"id, title, note, done, "order", childCount, rootMarker, parent, created, modified"#
    /// The times the raw side writes, after the columns above.
    static let times = "1795000000.0, 1795000000.0"

    func titles(_ n: Int) -> [String] { (0..<n).map { "L4 1.2.3.\($0) quick brown fox \($0 % 97)" } }

    /// A fresh store with its schema made by ObjectGraph, so both sides write the same tables and indexes.
    func emptyStore(_ dir: String, _ name: String) -> String {
        let path = dir + "/" + name + ".sqlite"
        _ = try! Store(path: path, model: OutlineModel.model)
        return path
    }

    func run(only: Set<String>) throws {
        if only.isEmpty || only.contains("insert") { try insertBulk() }
        if only.isEmpty || only.contains("fetch") { try fetchLevel() }
        if only.isEmpty || only.contains("edits") { try editsInHugeLevel() }
    }

    // MARK: - Insert N items in one save

    func insertBulk() throws {
        let n = levelSize
        let dir = Harness.scratch("insert")
        let names = titles(n)
        let folded = names.map(TextFolding.fold)
        var k = 0
        // The plain baseline writes one row per prepared INSERT; the reference line lets the C side use the
        // object graph's own trick (32 rows per INSERT), which leaves the cost of the graph alone.
        // The third line makes one object per item through the library (`Context.insert`), which the outline's
        // bulk append no longer does (it writes rows, as an import does): the object graph's own figure.
        for (rowsPerStatement, objects, name, goal) in [
            (1, false, "insert \(n) items in one save", "ratio <= 1.3"),
            (32, false, "  same, raw SQLite with 32 rows per INSERT", "(reference)"),
            (1, true, "  same, one object per item (Context.insert)", "(reference)")
        ] {
            let (ours, raw) = try Harness.interleaved(runs: runs) {
                k += 1
                let outline = try Outline(path: emptyStore(dir, "ours\(k)"))
                if objects { try insertObjects(outline, names) } else { try insertOurs(outline, names) }
            } baseline: {
                k += 1
                let sql = RawSQLite(path: emptyStore(dir, "raw\(k)"))
                sql.exec("INSERT INTO Item (id, title, done, \"order\", childCount, rootMarker) VALUES (1, 'Burrow', 0, 'a0', 0, 1)")
                insertRaw(sql, names, folded: folded, rowsPerStatement: rowsPerStatement)
            }
            Harness.report(name, ours: ours, baseline: raw, goal: goal)
        }
        try? FileManager.default.removeItem(atPath: dir)
    }

    @inline(never)
    func insertOurs(_ outline: Outline, _ names: [String]) throws {
        let root = try outline.root().objectID
        try outline.perform { try outline.append(titles: names, to: root) }
    }

    /// The same items as objects: each made by the context, given its title, key and parent, and saved.
    @inline(never)
    func insertObjects(_ outline: Outline, _ names: [String]) throws {
        let keys = OrderKey.keys(after: nil, count: names.count)
        try outline.perform {
            let root = try outline.root()
            for (name, key) in zip(names, keys) {
                let item = try outline.context.insert(Item.entityName)
                item["title"] = .string(name)
                item["order"] = .string(key)
                item.setObject(root, for: "parent")
            }
        }
    }

    /// The raw side writes the search index's rows too (issue 16), as ours does in the same transaction:
    /// the titles folded beforehand, so the folding is counted on our side only.
    @inline(never)
    func insertRaw(_ sql: RawSQLite, _ names: [String], folded: [String], rowsPerStatement: Int = 1) {
        let n = names.count
        let keys = OrderKey.keys(after: nil, count: n)
        sql.exec("BEGIN IMMEDIATE")
        let row = "(?, ?, NULL, 0, ?, 0, NULL, 1, \(Self.times))"
        let many = sql.prepare("INSERT INTO Item (\(Self.columns)) VALUES " + Array(repeating: row, count: rowsPerStatement).joined(separator: ","))
        let one = sql.prepare("INSERT INTO Item (\(Self.columns)) VALUES " + row)
        var i = 0
        while i < n {
            let m = n - i >= rowsPerStatement ? rowsPerStatement : 1
            let ins = m == rowsPerStatement ? many : one
            for j in 0..<m {
                let p = Int32(3 * j)
                sqlite3_bind_int64(ins, p + 1, Int64(i + j + 2))
                sql.bind(ins, p + 2, names[i + j])
                sql.bind(ins, p + 3, keys[i + j])
            }
            sql.step(ins)
            i += m
        }
        sqlite3_finalize(many)
        sqlite3_finalize(one)
        let index = RawTextIndex(sql)
        index.add(1, title: "burrow", note: nil)
        for (k, title) in folded.enumerated() { index.add(Int64(k + 2), title: title, note: nil) }
        index.finish()
        sql.exec("UPDATE Item SET childCount = \(n) WHERE id = 1")
        sql.exec("COMMIT")
    }

    // MARK: - Fetch a level in order and touch every title

    func fetchLevel() throws {
        let n = levelSize
        let dir = Harness.scratch("fetch")
        let path = emptyStore(dir, "level")
        do {
            let outline = try Outline(path: path)
            try outline.perform { try outline.append(titles: titles(n), to: try outline.root().objectID) }
        }
        let store = try Store(path: path, model: OutlineModel.model)
        // Each run's context is released after its clock stops (the identity map is a cache that outlives a
        // fetch) and before the baseline runs: both sides start on a warm heap, as in a program that keeps
        // fetching. Keeping every run's objects would make each run fault in fresh pages instead.
        var keep: [Outline] = []
        let sql = RawSQLite(path: path)
        var keepRaw: [[RawValue]] = []
        // Whole rows, as a plain fetch reads them, beside raw SQLite reading every column of each row into
        // values it keeps, and beside the title alone (the figure before 2026-12-04, which compares unlike
        // work); then naming the one property the loop reads, as Core Data's propertiesToFetch would, beside
        // raw SQLite reading only that column.
        let variants: [(label: String, properties: [String]?, wholeRaw: Bool, goal: String)] = [
            ("fetch a level of \(n), touch titles: whole rows", nil, true, "ratio <= 1.5"),
            ("fetch a level of \(n), touch titles: propertiesToFetch title", ["title"], false, "ratio <= 1.5"),
            ("  same, whole rows against raw reading the title alone", nil, false, "(reference)")
        ]
        // BURROW_FETCH_VARIANT=0, 1 or 2 runs one of them alone (for callgrind).
        let only = ProcessInfo.processInfo.environment["BURROW_FETCH_VARIANT"].flatMap { Int($0) }
        for (k, variant) in variants.enumerated() where only == nil || only == k {
            let (ours, raw) = try Harness.interleaved(runs: runs) {
                keep.append(try fetchOurs(store, properties: variant.properties))
            } baseline: {
                if variant.wholeRaw { keepRaw = fetchRawRows(sql) } else { _ = fetchRaw(sql) }
            } between: {
                keep.removeAll()
            } afterBaseline: {
                keepRaw.removeAll()
            }
            Harness.report(variant.label, ours: ours, baseline: raw, goal: variant.goal)
        }
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// Separate functions so `valgrind --toggle-collect='*fetchOurs*'` (or `*fetchRaw*`) can count each side
    /// alone; `BURROW_FETCH_VARIANT` picks whole rows or `propertiesToFetch`.
    static let printSplit = ProcessInfo.processInfo.environment["BURROW_FETCH_SPLIT"] != nil

    @inline(never)
    func fetchOurs(_ store: Store, properties: [String]?) throws -> Outline {
        var bytes = 0
        let outline = Outline(context: Context(store: store))
        let root = try outline.root()
        var request = Outline.level(of: root)
        request.propertiesToFetch = properties
        let start = DispatchTime.now().uptimeNanoseconds
        let items = try outline.context.fetch(request)
        let fetched = DispatchTime.now().uptimeNanoseconds
        for item in items {
            bytes &+= (item as! Item).title.utf8.count
        }
        // BURROW_FETCH_SPLIT=1 prints each run's fetch call and loop apart.
        if Self.printSplit {
            let end = DispatchTime.now().uptimeNanoseconds
            print(String(format: "  fetch %.1f ms, loop %.1f ms", Double(fetched - start) / 1e6, Double(end - fetched) / 1e6))
        }
        precondition(bytes > 0)
        return outline
    }

    @inline(never)
    func fetchRaw(_ sql: RawSQLite) -> Int {
        var bytes = 0
        let root = sql.scalar("SELECT id FROM Item WHERE rootMarker = 1")
        let q = sql.prepare("SELECT title FROM Item WHERE parent = ? ORDER BY \"order\", id")
        sqlite3_bind_int64(q, 1, root)
        while sqlite3_step(q) == SQLITE_ROW { bytes &+= sql.text(q, 0).utf8.count }
        sqlite3_finalize(q)
        return bytes
    }

    /// A column's value as a C program reading whole rows keeps it.
    enum RawValue {
        case null, integer(Int64), real(Double), text(String), blob([UInt8])
    }

    /// Every column of every row of the level, kept as values (what a whole-row fetch reads), the titles'
    /// bytes touched as the other loops touch them.
    @inline(never)
    func fetchRawRows(_ sql: RawSQLite) -> [[RawValue]] {
        var bytes = 0
        let root = sql.scalar("SELECT id FROM Item WHERE rootMarker = 1")
        let q = sql.prepare("SELECT * FROM Item WHERE parent = ? ORDER BY \"order\", id")
        sqlite3_bind_int64(q, 1, root)
        let columns = sqlite3_column_count(q)
        let title = (0..<columns).first { String(cString: sqlite3_column_name(q, $0)) == "title" } ?? 0
        var rows: [[RawValue]] = []
        while sqlite3_step(q) == SQLITE_ROW {
            var row: [RawValue] = []
            row.reserveCapacity(Int(columns))
            for i in 0..<columns {
                switch sqlite3_column_type(q, i) {
                case SQLITE_INTEGER: row.append(.integer(sqlite3_column_int64(q, i)))
                case SQLITE_FLOAT: row.append(.real(sqlite3_column_double(q, i)))
                case SQLITE_TEXT: row.append(.text(sql.text(q, i)))
                case SQLITE_BLOB:
                    let n = Int(sqlite3_column_bytes(q, i))
                    let p = sqlite3_column_blob(q, i)
                    row.append(.blob(n == 0 || p == nil ? [] : Array(UnsafeRawBufferPointer(start: p, count: n))))
                default: row.append(.null)
                }
            }
            if case .text(let t) = row[Int(title)] { bytes &+= t.utf8.count }
            rows.append(row)
        }
        sqlite3_finalize(q)
        precondition(bytes > 0)
        return rows
    }

    // MARK: - Single edits in a level of a million siblings

    func editsInHugeLevel() throws {
        let n = hugeLevel
        let dir = Harness.scratch("huge")
        let oursPath = emptyStore(dir, "ours"), rawPath = emptyStore(dir, "raw")
        for path in [oursPath, rawPath] { fill(path, n) }

        let outline = try Outline(path: oursPath)
        let root = try outline.root()
        var rng = SystemRandomNumberGenerator()
        var topIns: [Double] = [], firstDel: [Double] = [], moves: [Double] = []
        for _ in 0..<edits {
            topIns.append(
                try Harness.time {
                    _ = try outline.perform { try outline.insert("new at the top", into: root.objectID, at: 0) }
                })
            firstDel.append(
                try Harness.time {
                    try outline.perform { try outline.delete(try outline.child(of: root, at: 0)!.objectID) }
                })
            let id = ObjectID(entity: 0, rowID: Int64.random(in: 2...Int64(n), using: &rng))
            guard try outline.row(id) != nil else { continue }
            moves.append(
                try Harness.time {
                    try outline.perform { try outline.move(id, before: try outline.child(of: root, at: 0)!.objectID) }
                })
        }

        let sql = RawSQLite(path: rawPath)
        var rTop: [Double] = [], rDel: [Double] = [], rMove: [Double] = []
        let first = sql.prepare("SELECT id, \"order\" FROM Item WHERE parent = 1 ORDER BY \"order\", id LIMIT 1")
        func firstRow() -> (Int64, String) {
            _ = sqlite3_step(first)
            defer { sqlite3_reset(first) }
            return (sqlite3_column_int64(first, 0), sql.text(first, 1))
        }
        let ins = sql.prepare("INSERT INTO Item (\(Self.columns)) VALUES (?, 'new at the top', NULL, 0, ?, 0, NULL, 1, \(Self.times))")
        let del = sql.prepare("DELETE FROM Item WHERE id = ?")
        let count = sql.prepare("UPDATE Item SET childCount = childCount + ? WHERE id = 1")
        let move = sql.prepare("UPDATE Item SET \"order\" = ? WHERE id = ?")
        var nextID = Int64(n + 1_000_000)
        for _ in 0..<edits {
            rTop.append(
                Harness.time {
                    let (_, key) = firstRow()
                    sql.exec("BEGIN IMMEDIATE")
                    nextID += 1
                    sqlite3_bind_int64(ins, 1, nextID)
                    sql.bind(ins, 2, OrderKey.between(nil, key))
                    sql.step(ins)
                    sqlite3_bind_int64(count, 1, 1)
                    sql.step(count)
                    sql.exec("COMMIT")
                })
            rDel.append(
                Harness.time {
                    let (id, _) = firstRow()
                    sql.exec("BEGIN IMMEDIATE")
                    sqlite3_bind_int64(del, 1, id)
                    sql.step(del)
                    sqlite3_bind_int64(count, 1, -1)
                    sql.step(count)
                    sql.exec("COMMIT")
                })
            let id = Int64.random(in: 2...Int64(n), using: &rng)
            rMove.append(
                Harness.time {
                    let (_, key) = firstRow()
                    sql.exec("BEGIN IMMEDIATE")
                    sql.bind(move, 1, OrderKey.between(nil, key))
                    sqlite3_bind_int64(move, 2, id)
                    sql.step(move)
                    sql.exec("COMMIT")
                })
        }
        for s in [first, ins, del, count, move] { sqlite3_finalize(s) }
        let m = { (x: [Double]) in Harness.percentile(x, 0.5) }
        Harness.report("\(n) siblings: insert at the top (median)", ours: m(topIns), baseline: m(rTop), goal: "<= 5 ms")
        Harness.report("\(n) siblings: delete the first (median)", ours: m(firstDel), baseline: m(rDel), goal: "<= 5 ms")
        Harness.report("\(n) siblings: move one item (median)", ours: m(moves), baseline: m(rMove), goal: "<= 5 ms")
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// Setup, not measured: a root with `n` children written straight through SQLite.
    func fill(_ path: String, _ n: Int) {
        let sql = RawSQLite(path: path)
        let keys = OrderKey.keys(after: nil, count: n)
        let names = titles(min(n, 1000))
        sql.exec("BEGIN IMMEDIATE")
        sql.exec("INSERT INTO Item (id, title, done, \"order\", childCount, rootMarker) VALUES (1, 'Burrow', 0, 'a0', \(n), 1)")
        let ins = sql.prepare("INSERT INTO Item (\(Self.columns)) VALUES (?, ?, NULL, 0, ?, 0, NULL, 1, \(Self.times))")
        for i in 0..<n {
            sqlite3_bind_int64(ins, 1, Int64(i + 2))
            sql.bind(ins, 2, names[i % names.count])
            sql.bind(ins, 3, keys[i])
            sql.step(ins)
        }
        sqlite3_finalize(ins)
        // Keep ObjectGraph's ID sequence ahead of the rows written here.
        sql.exec("UPDATE og_metadata SET value = \(n + 2) WHERE key = 'next_id'")
        sql.exec("COMMIT")
    }
}
