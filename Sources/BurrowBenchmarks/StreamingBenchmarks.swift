import Foundation
import GRDBSQLite
import ObjectGraph
import Outline

/// Issue 17's import in bounded memory: `burrow import` of the generator's 1,000,000-item OPML as a
/// process (time and peak resident memory), into a new outline (written aside, `Store.makeNew`) and into
/// one that exists (`burrow add` made it: the write-ahead log's way), alternated with hnb loading the same
/// outline (time to its first screen, its peak memory) and with the raw SQLite loader: this executable as a
/// child process reading the file with the same streaming OPML reader and inserting the same rows and
/// search-index rows through the C API in one transaction, into a store made first (so its like is the
/// import into an existing outline). Runs only when named (`streaming`): about three minutes.
struct StreamingBenchmarks {
    let size: Int
    let runs: Int

    func run(only: Set<String>) throws {
        guard only.contains("streaming") else { return }
        guard let burrow = Harness.sibling("burrow") else {
            print("streaming: build the burrow binary first (swift build -c release --product burrow)")
            return
        }
        let dir = Harness.scratch("streaming")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try GeneratedOutline.make(size: size, in: dir)
        let opml = dir + "/big.opml"
        let me = CommandLine.arguments[0]
        var ours: [(Double, Double)] = [], existing: [(Double, Double)] = [], raw: [(Double, Double)] = [], hnb: [(Double, Double)] = []
        for k in 0..<runs {
            // Each side starts with the disk quiet: the files written and deleted before (the outline made, the
            // last run's stores) are on disk first. A file system mounted with `discard` (this machine's) trims a
            // deleted file's blocks at its next journal commit, which the next `fsync` waits for: the import
            // after three deleted 200 MB stores took 2.86–2.93 s against 2.35 s alone (2.23–2.56 s with these).
            sync()
            if let m = Harness.runMeasured(burrow, ["import", opml, "--db", dir + "/ours\(k).sqlite"]) { ours.append(m) }
            sync()
            if Harness.runMeasured(burrow, ["add", "first", "--db", dir + "/existing\(k).sqlite"]) != nil,
                let m = Harness.runMeasured(burrow, ["import", opml, "--db", dir + "/existing\(k).sqlite"])
            {
                existing.append(m)
            }
            sync()
            if let m = Harness.runMeasured(me, ["--raw-load", opml, dir + "/raw\(k).sqlite"]) { raw.append(m) }
            sync()
            if let m = Self.hnbLoad(dir + "/big.hnb") { hnb.append(m) }
            for name in ["ours\(k)", "existing\(k)", "raw\(k)"] {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: dir + "/\(name).sqlite" + suffix) }
            }
        }
        func median(_ xs: [(Double, Double)], _ i: Int) -> Double { Harness.percentile(xs.map { i == 0 ? $0.0 : $0.1 }, 0.5) }
        guard !ours.isEmpty else {
            print("streaming: `burrow import` failed")
            return
        }
        let line = { (name: String, xs: [(Double, Double)]) in
            xs.isEmpty ? "" : String(format: "%@ %.2f s, %.0f MiB", name, median(xs, 0), median(xs, 1))
        }
        if !hnb.isEmpty {
            Harness.report(
                "import \(size)-item OPML into a new outline, process (vs hnb loading it)", ours: median(ours, 0), baseline: median(hnb, 0),
                goal: "<= 1.0")
        }
        if !raw.isEmpty && !existing.isEmpty {
            Harness.report(
                "import \(size)-item OPML into an existing outline, process (vs the raw SQLite loader)", ours: median(existing, 0),
                baseline: median(raw, 0), goal: "<= 1.3")
        }
        if !hnb.isEmpty && !existing.isEmpty {
            Harness.report(
                "import \(size)-item OPML into an existing outline, process (vs hnb loading it)", ours: median(existing, 0),
                baseline: median(hnb, 0), goal: "(reference)")
        }
        let lines = [line("ours, new", ours), line("ours, existing", existing), line("raw loader", raw), line("hnb", hnb)]
        print("    peak memory: " + lines.filter { !$0.isEmpty }.joined(separator: "; "))
        print(String(format: "    goal: peak <= 200 MiB: %@", median(ours, 1) <= 200 ? "met" : "not met"))
    }

    /// hnb loading `file` to its first screen: seconds, and its peak resident MiB then (VmHWM).
    static func hnbLoad(_ file: String) -> (Double, Double)? {
        guard let hnb = GeneratedOutline.hnb, let pty = try? PseudoTerminal(hnb, [file]) else { return nil }
        defer { pty.stop() }
        guard let t = pty.time(until: "return edit", timeout: 120),
            let status = try? String(contentsOfFile: "/proc/\(pty.pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kib = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return (t, kib / 1024)
    }

    /// The raw loader (`BurrowBenchmarks --raw-load FILE DB`): a store made by ObjectGraph (same schema and
    /// index), then the OPML file mapped and read by the same streaming reader, every item a row and a
    /// search-index row inserted with prepared statements in one transaction, each parent's count set once
    /// its last child is read.
    static func rawLoad(file: String, db: String) throws {
        _ = try Store(path: db, model: OutlineModel.model)
        let sql = RawSQLite(path: db)
        let data = try Data(contentsOf: URL(fileURLWithPath: file), options: .alwaysMapped)
        sql.exec("BEGIN IMMEDIATE")
        sql.exec("INSERT INTO Item (id, title, done, \"order\", childCount, rootMarker) VALUES (1, 'Burrow', 0, 'a0', 0, 1)")
        let row = sql.prepare(
            "INSERT INTO Item (\(StorageBenchmarks.columns)) VALUES (?, ?, ?, ?, ?, 0, NULL, ?, \(StorageBenchmarks.times))")
        let index = RawTextIndex(sql)
        index.add(1, title: "burrow", note: nil)
        let count = sql.prepare("UPDATE Item SET childCount = ? WHERE id = ?")
        var path: [(id: Int64, last: String?, children: Int64)] = [(1, nil, 0)]
        var next: Int64 = 2
        func close(to depth: Int) {
            while path.count > depth + 1 {
                let done = path.removeLast()
                guard done.children > 0 else { continue }
                sqlite3_bind_int64(count, 1, done.children)
                sqlite3_bind_int64(count, 2, done.id)
                sql.step(count)
            }
        }
        try OPML.read(bytes: data) { node, depth in
            close(to: depth)
            path[depth].children += 1
            let key = OrderKey.between(path[depth].last, nil)
            path[depth].last = key
            sqlite3_bind_int64(row, 1, next)
            sql.bind(row, 2, node.title)
            if let note = node.note { sql.bind(row, 3, note) } else { sqlite3_bind_null(row, 3) }
            sqlite3_bind_int64(row, 4, node.isDone ? 1 : 0)
            sql.bind(row, 5, key)
            sqlite3_bind_int64(row, 6, path[depth].id)
            sql.step(row)
            index.add(next, title: TextFolding.fold(node.title), note: node.note.map(TextFolding.fold))
            path.append((next, nil, 0))
            next += 1
        }
        close(to: -1)
        sqlite3_finalize(row)
        index.finish()
        sqlite3_finalize(count)
        sql.exec("COMMIT")
    }
}
