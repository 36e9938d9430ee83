import Foundation
import ObjectGraph
import TestSupport
import Testing

@testable import Outline

/// Several real `burrow` processes writing the same store at the same moment: every value a save derives
/// from stored state (child counts, order keys) must come out as if they had run one after another.
@Suite(.serialized, .onAThreadOfItsOwn("processes")) struct MultiProcessTests {
    /// What is wrong with the stored outline, read without trusting any stored count.
    static func problems(_ path: String) throws -> [String] {
        let o = try Outline(path: path)
        var out: [String] = []
        let all = try o.context.fetch(FetchRequest("Item"))
        var children: [Int64: [Item]] = [:]
        for i in 0..<all.count {
            let item = all[i] as! Item
            if let p = item.parent { children[p.objectID.rowID, default: []].append(item) }
        }
        for i in 0..<all.count {
            let item = all[i] as! Item
            let kids = children[item.objectID.rowID] ?? []
            if item.childCount != kids.count {
                out.append("#\(item.objectID.rowID) stores \(item.childCount) sub-items but has \(kids.count)")
            }
            let keys = kids.map(\.order)
            if Set(keys).count != keys.count {
                out.append("#\(item.objectID.rowID) has \(keys.count - Set(keys).count) repeated order keys")
            }
        }
        return out
    }

    /// `burrow add x --under P` at the same moment as `burrow rm P/c0` (P's only child): the count must
    /// end at 1 and export must show x. The old code read the count before its transaction.
    @Test func addingWhileRemovingASiblingKeepsTheCountAndExportWhole() throws {
        let folder = TemporaryDirectory("burrow-multi")
        let template = folder.path("template.sqlite")
        #expect(BurrowProcess.run(["add", "P", "--db", template]).status == 0)
        #expect(BurrowProcess.run(["add", "c0", "--under", "P", "--db", template]).status == 0)
        var failures: [String] = []
        for trial in 0..<40 {
            let db = try folder.copy(ofStore: template, as: "t\(trial).sqlite")
            let results = try BurrowProcess.concurrently(2) { i in
                i == 0
                    ? BurrowProcess.run(["add", "x", "--under", "P", "--db", db])
                    : BurrowProcess.run(["rm", "P/c0", "--db", db])
            }
            #expect(results.map(\.status) == [0, 0], "\(results.map(\.err))")
            let exported = BurrowProcess.run(["export", "--format", "text", "--db", db])
            if exported.out != "P\n\tx\n" { failures.append("trial \(trial): export gave \(exported.out.debugDescription)") }
            failures += try Self.problems(db).map { "trial \(trial): \($0)" }
        }
        #expect(failures == [])
    }

    /// Four processes appending to one level at once: every add counted, every key distinct.
    @Test func concurrentAppendsKeepCountAndDistinctKeys() throws {
        let folder = TemporaryDirectory("burrow-multi")
        let db = folder.path()
        #expect(BurrowProcess.run(["add", "P", "--db", db]).status == 0)
        let perWorker = 40
        let results = try BurrowProcess.concurrently(4) { w in
            (0..<perWorker).map { k in BurrowProcess.run(["add", "w\(w)-\(k)", "--under", "P", "--db", db]).status }
        }
        #expect(results.flatMap { $0 }.allSatisfy { $0 == 0 })
        #expect(try Self.problems(db) == [])
        let o = try Outline(path: db)
        let p = try o.item(at: "P")
        #expect(try o.children(of: p).count == 4 * perWorker)
        #expect(p.childCount == 4 * perWorker)
    }

    /// Four processes adding, renaming and deleting at once while this process searches: the search index
    /// holds exactly the items stored (check compares every row's text), and `burrow find` and this
    /// process's search agree with the titles.
    @Test func searchSeesEveryProcesssWritesAndTheIndexStaysWhole() throws {
        let folder = TemporaryDirectory("burrow-multi")
        let db = folder.path()
        #expect(BurrowProcess.run(["add", "P", "--db", db]).status == 0)
        let watcher = try Outline(path: db)
        var seen: [Int] = []
        let work: @Sendable (Int) -> [Int32] = { w in
            (0..<15).map { k in
                var status = BurrowProcess.run(["add", "GODEL w\(w) n\(k)", "--under", "P", "--db", db]).status
                if k % 3 == 0 { status |= BurrowProcess.run(["rename", "P/GODEL w\(w) n\(k)", "Escher w\(w) n\(k)", "--db", db]).status }
                let now = k % 3 == 0 ? "Escher" : "GODEL"
                if k % 5 == 1 { status |= BurrowProcess.run(["rm", "P/\(now) w\(w) n\(k)", "--db", db]).status }
                return status
            }
        }
        let results = try BurrowProcess.concurrently(4, meanwhile: { seen.append(try watcher.find("gödel").count) }, work)
        #expect(results.flatMap { $0 }.allSatisfy { $0 == 0 })
        #expect(seen.allSatisfy { $0 <= 60 })
        // Per worker: 15 added, 5 renamed away (k = 0, 3, 6, 9, 12), 3 removed (k = 1, 6, 11; 6 was renamed).
        let found = try Outline(path: db).find("Gödel")
        #expect(found.count == 4 * 8)
        #expect(try Outline(path: db).find("escher").count == 4 * 4)
        let lines = BurrowProcess.run(["find", "godel", "--db", db]).out.split(separator: "\n")
        #expect(lines.count == 4 * 8 && lines.allSatisfy { $0.contains("P › GODEL w") })
        #expect(BurrowProcess.run(["check", "--db", db]).status == 0)
    }

    /// What one worker knows of one of its own items: only that worker renames, marks, moves or deletes it,
    /// so after the run the item must be exactly as its last acknowledged command left it.
    struct Own: Sendable {
        var id: Int64
        var title: String
        var level: Int
        var done = false
        var deleted = false
    }

    struct WorkerReport: Sendable {
        var items: [Own] = []
        var failures: [String] = []
        var commands = 0
    }

    /// Several `burrow` processes at once doing random adds (at the end and at the top), moves (between the
    /// shared levels, at random positions), renames, done toggles and deletes on the same levels, while this
    /// process watches those levels with results controllers. Afterwards `burrow check` finds nothing, every
    /// acknowledged command's effect is there, and each controller equals a fresh fetch.
    @Test func randomCommandsFromSeveralProcessesLoseNothing() throws {
        let folder = TemporaryDirectory("burrow-multi")
        let db = folder.path()
        let levels = 3
        #expect(BurrowProcess.run(["add", "L0", "L1", "L2", "--db", db]).status == 0)
        let workers = 4
        let perWorker = TestScale.size(ci: 120, big: 600)
        // Worker w draws from seed + w; the processes' interleaving is not replayable, their commands are.
        let seed = TestSeed.seed(100)
        let note = TestSeed.note(seed)

        let watcher = try Outline(path: db)
        let recorders = try (0..<levels).map { k in
            try ResultsRecorder(ResultsController(context: watcher.context, request: Outline.level(of: try watcher.item(at: "L\(k)"))))
        }
        let poll = { _ = try watcher.context.store.poll() }
        let reports = try BurrowProcess.concurrently(workers, meanwhile: poll) { w -> WorkerReport in
            var rng = SeededRandom(seed: seed + UInt64(w))
            var report = WorkerReport()
            func burrow(_ args: [String]) -> BurrowProcess.Result {
                report.commands += 1
                let r = BurrowProcess.run(args + ["--db", db])
                if r.status != 0 { report.failures.append("\(args): exit \(r.status): \(r.err)") }
                return r
            }
            for step in 0..<perWorker {
                let live = report.items.indices.filter { !report.items[$0].deleted }
                let pick = live.isEmpty ? nil : live[Int(rng.next() % UInt64(live.count))]
                switch (rng.next() % 10, pick) {
                case (0...3, _), (_, nil):
                    let level = Int(rng.next() % UInt64(levels))
                    let title = "w\(w)-\(step)"
                    let top = rng.next() % 3 == 0
                    let r = burrow(["add", title, "--under", "L\(level)"] + (top ? ["--top"] : []))
                    // "Added “w0-3” #42 under “L1”"
                    if r.status == 0, let id = r.out.split(separator: "#").dropFirst().first?.split(separator: " ").first.flatMap({ Int64($0) }) {
                        report.items.append(Own(id: id, title: title, level: level))
                    } else if r.status == 0 {
                        report.failures.append("add printed no ID: \(r.out)")
                    }
                case (4, let k?), (5, let k?):
                    let to = Int(rng.next() % UInt64(levels))
                    let position = ["--position", String(rng.next() % 8 + 1)]
                    if burrow(["mv", "#\(report.items[k].id)", "--to", "L\(to)"] + (rng.next() % 2 == 0 ? position : [])).status == 0 {
                        report.items[k].level = to
                    }
                case (6, let k?):
                    let title = report.items[k].title + "r"
                    if burrow(["rename", "#\(report.items[k].id)", title]).status == 0 { report.items[k].title = title }
                case (7, let k?), (8, let k?):
                    let done = !report.items[k].done
                    if burrow(["done", "#\(report.items[k].id)"] + (done ? [] : ["--undo"])).status == 0 { report.items[k].done = done }
                case (_, let k?):
                    if burrow(["rm", "#\(report.items[k].id)"]).status == 0 { report.items[k].deleted = true }
                }
            }
            return report
        }
        try watcher.context.store.poll()

        #expect(reports.flatMap(\.failures) == [], "\(note)")
        let check = BurrowProcess.run(["check", "--db", db])
        #expect(check.status == 0, "\(check.out); \(note)")
        let reader = try Outline(path: db)
        var wrong: [String] = []
        for report in reports {
            for own in report.items {
                let item = try reader.context.existingObject(for: ObjectID(entity: Item.Slot.entity.index, rowID: own.id)) as? Item
                if own.deleted {
                    if item != nil { wrong.append("#\(own.id) was deleted but is there") }
                    continue
                }
                guard let item else {
                    wrong.append("#\(own.id) “\(own.title)” is gone")
                    continue
                }
                if item.title != own.title { wrong.append("#\(own.id) is “\(item.title)”, not “\(own.title)”") }
                if item.isDone != own.done { wrong.append("#\(own.id) done is \(item.isDone), not \(own.done)") }
                if item.parent?.title != "L\(own.level)" { wrong.append("#\(own.id) is under \(item.parent?.title ?? "nothing"), not L\(own.level)") }
            }
        }
        #expect(wrong == [], "\(note)")
        for (k, r) in recorders.enumerated() {
            try r.checkAgainstFetch(watcher.context.store)
            #expect(r.failures == [], "\(note)")
            // The count an open outliner shows beside the level is the store's, and right (the old code
            // showed 3,182 of 4,000 and never corrected it).
            #expect(try watcher.item(at: "L\(k)").childCount == r.controller.count)
        }
        let shown: Int = recorders.map(\.controller.count).reduce(0, +)
        let kept: Int = reports.flatMap(\.items).filter { !$0.deleted }.count
        #expect(shown == kept)
        #expect(reports.map(\.commands).reduce(0, +) == workers * perWorker)
    }

    /// `burrow import` killed with SIGKILL at random moments (while another process adds at the same time):
    /// each import is all there or not at all, the store checks clean, and every acknowledged add is there.
    @Test func importsKilledMidWriteLeaveNothingHalfDone() throws {
        let folder = TemporaryDirectory("burrow-multi")
        let db = folder.path()
        #expect(BurrowProcess.run(["add", "P", "--db", db]).status == 0)
        let file = folder.url.appendingPathComponent("items.txt").path
        // More items than `OutlineLoader.batchSize`: an import writes batches into its transaction before it
        // commits, so a kill can land between two of them.
        let size = OutlineLoader.batchSize * 2 + 1000
        try Data((0..<size).map { "item \($0)\n" }.joined().utf8).write(to: URL(fileURLWithPath: file))
        // One worker adds beside the imports; the other starts imports and kills them at moments drawn from
        // the seed.
        let seed = TestSeed.seed(7)
        let note = TestSeed.note(seed)
        let results = try BurrowProcess.concurrently(2) { worker -> (adds: Int, killed: Int, completed: Int) in
            if worker == 0 {
                return ((0..<30).filter { k in BurrowProcess.run(["add", "beside \(k)", "--under", "P", "--db", db]).status == 0 }.count, 0, 0)
            }
            var rng = SeededRandom(seed: seed)
            var killed = 0, completed = 0
            for _ in 0..<25 {
                guard let p = try? BurrowProcess.start(["import", file, "--under", "P", "--db", db]) else { continue }
                // Anywhere from before the store is opened to after the commit.
                usleep(useconds_t(rng.next() % 400_000))
                p.signal(SIGKILL)
                p.waitUntilExit()
                if p.terminationReason == .uncaughtSignal { killed += 1 } else if p.terminationStatus == 0 { completed += 1 }
            }
            return (0, killed, completed)
        }
        let adds = [results[0].adds]
        let (killed, completed) = (results[1].killed, results[1].completed)
        #expect(killed > 0, "killed \(killed), completed \(completed); \(note)")
        let check = BurrowProcess.run(["check", "--db", db])
        #expect(check.status == 0, "\(check.out); \(note)")
        let o = try Outline(readingAt: db)
        let p = try o.item(at: "P")
        let imported = try o.context.count(FetchRequest("Item", where: Property("parent") == p && Property("title").beginsWith("item ")))
        #expect(imported % size == 0 && imported >= completed * size, "\(imported) items for \(completed) completed imports")
        #expect(try o.context.count(FetchRequest("Item", where: Property("parent") == p && Property("title").beginsWith("beside "))) == adds[0])
        #expect(p.childCount == imported + adds[0])
    }
}
