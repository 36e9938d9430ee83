import Foundation
import GRDBSQLite
import ObjectGraph
import Outline

/// Issue 33's views at scale, each beside raw SQLite in the same run: the first screen (the live list read
/// and its first 40 rows) of the agenda, of a tag's items and of a search's text in an outline of `size` items (a tenth of them
/// planned or due, one in a hundred tagged `work`); and a change elsewhere reaching that screen (another
/// store's commit, polled, to the list's batch).
struct AgendaBenchmarks {
    let size: Int
    let runs: Int

    static let today = "2026-11-29"

    /// Item `i`: every tenth planned or due within 60 days either side of today, every hundredth tagged
    /// `work` (and some `home`).
    static func node(_ i: Int) -> OutlineNode {
        var extras = OutlineNode.Extras()
        if i % 10 == 0, let day = Outline.day(today, plus: (i / 10) % 121 - 60) {
            if i % 20 == 0 { extras.deadline = day } else { extras.scheduled = day }
            extras.state = "TODO"
        }
        if i % 100 == 7 { extras.tags = ["work"] }
        if i % 100 == 8 { extras.tags = ["home", "work"] }
        return OutlineNode("item \(i)", isDone: i % 30 == 0, extras: extras.isEmpty ? nil : extras)
    }

    func run(only: Set<String>) throws {
        guard only.isEmpty || only.contains("agenda") else { return }
        let dir = Harness.scratch("agenda")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/agenda.sqlite"
        let nodes = stride(from: 0, to: size, by: 1000).map { start in
            OutlineNode("group \(start / 1000)", children: (start..<min(size, start + 1000)).map(Self.node))
        }
        let load = try Harness.time {
            let outline = try Outline(path: path)
            let root = try outline.root().objectID
            _ = try outline.perform("Import") { try outline.add(nodes, under: root) }
            outline.checkpoint()
        }
        print("  \(size) items, a tenth dated, a hundredth tagged: loaded in \(Harness.ms(load))")
        let next = Outline.day(Self.today, plus: 7)!
        let sql = RawSQLite(path: path)
        try firstScreen(
            path, sql, "agenda to \(next) in \(size)", Outline.agendaRequest(before: next),
            raw: "SELECT id, title FROM Item WHERE agendaDay < '\(next)' AND done = 0 ORDER BY agendaDay, \"order\" LIMIT 40",
            count: "SELECT count(*) FROM Item WHERE agendaDay < '\(next)' AND done = 0")
        let work = try ItemQuery("#work", today: Self.today)
        // As the view asks: not the top item.
        let root = try Outline(path: path).root().objectID.rowID
        try firstScreen(
            path, sql, "tag #work in \(size)", FetchRequest(Item.entityName, where: work.predicate && Property("id") != root),
            raw:
                "SELECT i.id, i.title FROM Item_tags l JOIN Item i ON i.id = l.source WHERE l.target = (SELECT id FROM Tag WHERE name = 'work') ORDER BY i.id LIMIT 40",
            count: "SELECT count(*) FROM Item_tags WHERE target = (SELECT id FROM Tag WHERE name = 'work')")
        // A search view's text, compared as search compares it (case and diacritics folded); the baseline
        // folds ASCII letters only, in SQLite's own functions.
        let text = try ItemQuery("\"item 4242\"", today: Self.today)
        try firstScreen(
            path, sql, "text \"item 4242\" in \(size)", FetchRequest(Item.entityName, where: text.predicate),
            raw: "SELECT id, title FROM Item WHERE instr(lower(title), 'item 4242') > 0 OR instr(lower(note), 'item 4242') > 0 ORDER BY id LIMIT 40",
            count: "SELECT count(*) FROM Item WHERE instr(lower(title), 'item 4242') > 0 OR instr(lower(note), 'item 4242') > 0")
        try changeReachesTheScreen(path, Outline.agendaRequest(before: next))
        try viewsInATerminal(path)
    }

    /// The same views as the user meets them: the outliner (release build, beside the benchmark) on the
    /// store in a pseudo-terminal, from the key that opens the view to its frame drawn; beside it, in the
    /// same process, a key that only moves the selection (the terminal's and the program's floor).
    private func viewsInATerminal(_ path: String) throws {
        guard let burrow = Harness.sibling("burrow") else {
            print("  views in a terminal: skipped (build the outliner beside the benchmark: swift build -c release)")
            return
        }
        let views: [(label: String, typed: String, key: String, marker: String)] = [
            ("the agenda (=)", "", "=", "Agenda to"), ("tag #work (:tag work)", ":tag work", "\r", "#work"),
            // Its second row: the typed line (and the view's title) hold the first one's text.
            ("text \"item 4242\" (:find)", ":find \"item 4242\"", "\r", "item 42420")
        ]
        for view in views {
            var ours: [Double] = []
            var floor: [Double] = []
            for _ in 0..<runs {
                let pty = try PseudoTerminal(burrow, ["--db", path])
                defer { pty.stop() }
                guard pty.time(until: "?: help") != nil else { throw PseudoTerminal.Failure("burrow drew no frame") }
                // `j` moves to the second group: its title is drawn selected.
                guard let moved = pty.time(afterTyping: "j", until: "group 1") else { throw PseudoTerminal.Failure("no frame after j") }
                floor.append(moved)
                if !view.typed.isEmpty { _ = pty.time(afterTyping: view.typed, until: view.typed, timeout: 2) }
                guard let t = pty.time(afterTyping: view.key, until: view.marker) else {
                    throw PseudoTerminal.Failure("burrow drew no \(view.label)")
                }
                ours.append(t)
            }
            Harness.report(
                "in a terminal: key to \(view.label)'s frame, \(size) items (vs j)", ours: Harness.percentile(ours, 0.5),
                baseline: Harness.percentile(floor, 0.5), goal: "<= 50 ms")
        }
    }

    /// The list made and its first 40 rows read, as a view level's first frame reads them; beside it the
    /// same rows and their count by the fastest SQL for them.
    private func firstScreen(_ path: String, _ sql: RawSQLite, _ label: String, _ request: FetchRequest, raw: String, count: String) throws {
        let store = try Store(path: path, model: OutlineModel.model)
        var shown = 0
        let (ours, baseline) = try Harness.interleaved(runs: runs) {
            let outline = Outline(context: Context(store: store))
            let c = outline.controller(for: request)
            try c.performFetch()
            shown = c.count
            for row in 0..<min(40, c.count) { _ = c.itemRow(at: row) }
        } baseline: {
            let n = sql.prepare(count)
            _ = sqlite3_step(n)
            sqlite3_finalize(n)
            let s = sql.prepare(raw)
            while sqlite3_step(s) == SQLITE_ROW { _ = sql.text(s, 1) }
            sqlite3_finalize(s)
        }
        Harness.report("first screen, \(label) (\(shown) rows)", ours: ours, baseline: baseline, goal: "<= 50 ms")
    }

    /// Another store (a process of its own) marks a task on the agenda's first screen done; the time from
    /// its commit to the list's batch here, median of `runs`.
    private func changeReachesTheScreen(_ path: String, _ request: FetchRequest) throws {
        let outline = try Outline(path: path)
        let c = outline.controller(for: request)
        var delivered = false
        c.onChange = { _ in delivered = true }
        try c.performFetch()
        let other = try Outline(path: path)
        var times: [Double] = []
        for k in 0..<min(runs, c.count) {
            let id = c.objectID(at: k)
            guard let item = try other.context.existingObject(for: id) as? Item else { break }
            try other.perform("Done") { item.isDone = true }
            delivered = false
            times.append(try Harness.time { _ = try outline.context.store.poll() })
            precondition(delivered, "the change did not reach the list")
        }
        Harness.report("a change elsewhere to the agenda's screen", ours: Harness.percentile(times, 0.5), baseline: 0, goal: "<= 20 ms")
    }
}
