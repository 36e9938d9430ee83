import TestSupport
import Testing

@testable import ObjectGraph

/// Random units of work on the task model from two connections to one file, with undo, redo, polls and
/// paused controllers. After each step every live controller is checked twice: each batch applied to its
/// old list gives its new list, which is a fresh fetch (`ResultsRecorder`); and its list is what a plain
/// Swift reading of its request over the stored rows gives (filter, sort with ties by ID, window, sections),
/// a model of the fetch that shares no code with the store. The counts the store keeps must match the rows,
/// a poll must leave nothing for the next, and a redo right after an undo must give back exactly the graph
/// before the undo. A failure names its seed and the last steps.
@Suite struct RandomizedResultsTests {
    /// A controller's request as the test understands it.
    struct Shown: CustomStringConvertible {
        /// The list whose tasks it shows; nil for the controller of the lists.
        var list: Int64?
        var openOnly = false
        var sectioned = false
        var descending = false
        var limit: Int?
        var offset = 0
        var description: String {
            guard let list else { return "lists" }
            return "tasks of #\(list)\(openOnly ? " open" : "")\(sectioned ? " by done" : "")\(descending ? " reversed" : "")"
                + (limit.map { " limit \($0)" } ?? "") + (offset > 0 ? " offset \(offset)" : "")
        }
    }

    /// A stored task as plain values.
    struct StoredTask {
        var list: Int64?
        var position: Int64
        var done: Bool
    }

    static let listEntity = TaskModel.model.entity("List")!.index

    @Test(arguments: TestSeed.seeds([21, 22, 23]))
    func randomUnitsOfWork(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let dir = TemporaryDirectory("objectgraph-random")
        defer { withExtendedLifetime(dir) {} }
        let t = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        let mine = t.context, store = t.store
        let theirs = Context(store: try Store(path: dir.path(), model: TaskModel.model))
        // Saves here race on purpose, over what the other side read (the invariants under test are the store's): last writer wins (`MergePolicy.overwrite`), as before that policy was the default.
        (mine.mergePolicy, theirs.mergePolicy) = (.overwrite, .overwrite)
        var watched: [(recorder: ResultsRecorder, shown: Shown)] = []
        var log: [String] = []
        var unpolled = 0
        // The graph before the last undo, while nothing has changed since; and for each of this context's
        // steps, how many commits the other connection had made when it was saved. A redo right after an
        // undo gives back the graph before the undo only when nobody else has committed since the step was
        // made: had they changed what it changed, the undo could have been a no-op the redo is not.
        var undoneFrom: [Int64: [Value]]?
        var theirCommits = 0
        var madeAfter: [String: Int] = [:]
        var failures: [String] = []

        // How many batches came from reading a list again after a change touched many more rows than it
        // held (a bulk add or a list deleted with its tasks, seen by the other lists' controllers).
        var rereads = 0
        func refill() throws {
            rereads += watched.filter { $0.recorder.controller.isInvalidated }.reduce(0) { $0 + $1.recorder.controller.listRereads }
            watched.removeAll { $0.recorder.controller.isInvalidated }
            let lists = try mine.fetch(FetchRequest("List")).rowIDs
            while watched.count < 5 {
                var shown = Shown()
                if rng.below(6) > 0 {
                    shown.list = rng.pick(lists)
                    shown.openOnly = rng.below(3) == 0
                    shown.sectioned = rng.below(3) == 0
                    shown.descending = rng.below(4) == 0
                    if !shown.sectioned && rng.below(3) == 0 {
                        shown.limit = rng.below(4) + 1
                        shown.offset = rng.below(3)
                    }
                }
                watched.append((try ResultsRecorder(controller(shown, mine, partial: rng.below(2) == 0)), shown))
            }
        }

        /// Takes in their commits before this context acts. A poll brings those made since anything last took
        /// them in (resuming a controller may have taken some already), and then there is nothing left.
        func catchUp() throws {
            guard unpolled > 0 else { return }
            let polled = try store.poll()
            if polled > unpolled { failures.append("a poll brought \(polled) commits, \(unpolled) were made") }
            if try store.poll() != 0 { failures.append("a second poll brought more commits") }
            unpolled = 0
        }

        try refill()
        for step in 0..<300 {
            var did = "nothing"
            do {
                switch rng.below(21) {
                case 0..<9:
                    try catchUp()
                    if let edit = try Self.edit(mine, &rng, step) {
                        try mine.save(actionName: "step \(step)")
                        madeAfter["step \(step)"] = theirCommits
                        did = edit
                        undoneFrom = nil
                    }
                case 9, 10:
                    try catchUp()
                    let before = try TaskModel.rows(store)
                    if let name = try mine.undo() {
                        did = "undo \(name)"
                        undoneFrom = before
                    }
                case 11, 12:
                    try catchUp()
                    if let name = try mine.redo() {
                        did = "redo \(name)"
                        if let before = undoneFrom, madeAfter[name] == theirCommits, try TaskModel.rows(store) != before {
                            let now = try TaskModel.rows(store)
                            let keys = Set(now.keys).union(before.keys).filter { now[$0] != before[$0] }.sorted()
                            failures.append(
                                "redo of \(name) did not give back the graph before its undo: "
                                    + keys.map { "#\($0) \(before[$0].map { "\($0)" } ?? "absent") → \(now[$0].map { "\($0)" } ?? "absent")" }.joined(
                                        separator: ", "))
                        }
                    }
                    undoneFrom = nil
                case 13:
                    if let w = rng.pick(watched) {
                        if w.recorder.controller.isPaused { try w.recorder.controller.resume() } else { w.recorder.controller.pause() }
                        did = "\(w.recorder.controller.isPaused ? "pause" : "resume") \(w.shown)"
                    }
                case 14..<19:
                    try theirs.store.poll()
                    if let edit = try Self.edit(theirs, &rng, step) {
                        try theirs.save()
                        unpolled += 1
                        theirCommits += 1
                        did = "theirs: \(edit)"
                        undoneFrom = nil
                    }
                default:
                    let wanted = unpolled
                    try catchUp()
                    did = "poll (\(wanted) commits)"
                }
            } catch let conflict as UndoConflict {
                did = "\(conflict)"
                undoneFrom = nil
            }
            log.append("\(step): \(did)")
            if unpolled == 0 {
                failures += try Self.check(watched, store)
            }
            if !failures.isEmpty {
                Issue.record("\(rng.note), step \(step): \(failures[0])\nlast steps:\n\(log.suffix(8).joined(separator: "\n"))")
                return
            }
            if rng.below(8) == 0 { try refill() }
        }
        rereads += watched.reduce(0) { $0 + $1.recorder.controller.listRereads }
        print("randomized results, \(rng.note): \(rereads) batches from a list read again after a big change")
        #expect(rereads >= 5, "big changes were too rare to prove anything")
    }

    /// A controller for `shown` in `context`, reading only the properties a list shows when `partial`.
    func controller(_ shown: Shown, _ context: Context, partial: Bool) -> ResultsController {
        guard let list = shown.list else { return ResultsController(context: context, request: TaskModel.lists) }
        let inList: ObjectPredicate = Property("list") == ObjectID(entity: Self.listEntity, rowID: list)
        var request = FetchRequest(
            "Task", where: shown.openOnly ? inList && Property("done") == false : inList,
            sortedBy: (shown.sectioned ? [SortKey("done")] : []) + [SortKey("position", ascending: !shown.descending)])
        request.limit = shown.limit
        request.offset = shown.offset
        if partial { request.propertiesToFetch = ["title", "done"] }
        return ResultsController(context: context, request: request, sectionKey: shown.sectioned ? "done" : nil)
    }

    /// One random unit of work through `c`, unsaved, that changes something; what it did, or nil when there
    /// was nothing to do it on. Every edit changes a value (a poll counts only commits that change
    /// something).
    static func edit(_ c: Context, _ rng: inout SeededRandom, _ step: Int) throws -> String? {
        let lists = Array(try c.fetch(FetchRequest("List")))
        let tasks = Array(try c.fetch(FetchRequest("Task")))
        func newPosition(_ task: ManagedObject) -> Value {
            let now: Int64 = task["position"]
            return .integer((now + Int64(rng.below(11)) + 1) % 12)
        }
        switch rng.below(14) {
        case 12, 13:
            // Many tasks at once (an import), or all of a big list's tasks deleted (a subtree), with an edit
            // elsewhere in the same unit half the time: the other lists' controllers see many more touched
            // rows than they hold.
            guard let list = rng.pick(lists) else { return nil }
            let its = tasks.filter { $0.object("list") === list }
            let what: String
            if its.count >= 65 {
                for task in its { c.delete(task) }
                what = "delete the \(its.count) tasks of \(list.objectID)"
            } else {
                for k in 0..<(65 + rng.below(60)) { try c.addTask("b\(step).\(k)", to: list, at: Int64(rng.below(12))) }
                what = "add many tasks to \(list.objectID)"
            }
            if rng.below(2) == 0, let task = rng.pick(tasks.filter { $0.object("list") !== list }) {
                task["done"] = .bool(!(task["done"] as Bool))
            }
            return what
        case 0, 1, 2:
            guard let list = rng.pick(lists) else { return nil }
            let task = try c.addTask("t\(step)", to: list, at: Int64(rng.below(12)))
            return "add \(task.objectID) to \(list.objectID)"
        case 3:
            guard tasks.count > 8, let task = rng.pick(tasks) else { return nil }
            c.delete(task)
            return "delete \(task.objectID)"
        case 4:
            guard let task = rng.pick(tasks), let list = rng.pick(lists.filter { $0 !== task.object("list") }) else { return nil }
            task.setObject(list, for: "list")
            if rng.below(2) == 0 { task["position"] = newPosition(task) }
            return "move \(task.objectID) to \(list.objectID)"
        case 5:
            guard let task = rng.pick(tasks) else { return nil }
            task["position"] = newPosition(task)
            return "reposition \(task.objectID)"
        case 6:
            guard let task = rng.pick(tasks) else { return nil }
            task["title"] = .string("r\(step)")
            return "rename \(task.objectID)"
        case 7:
            guard let task = rng.pick(tasks) else { return nil }
            task["done"] = .bool(!(task["done"] as Bool))
            return "toggle \(task.objectID)"
        case 8:
            guard lists.count < 4 else { return nil }
            return "add list \(try c.addList("L\(rng.below(5))").objectID)"
        case 9:
            // Names repeat, so lists tie on their sort key too.
            guard let list = rng.pick(lists) else { return nil }
            let name = "L\(rng.below(5))"
            guard list["name"] != .string(name) else { return nil }
            list["name"] = .string(name)
            return "rename list \(list.objectID)"
        case 10:
            guard lists.count > 2, let list = rng.pick(lists) else { return nil }
            c.delete(list)
            return "delete list \(list.objectID) and its \(list.count("tasks")) tasks"
        default:
            guard let task = rng.pick(tasks), let list = rng.pick(lists) else { return nil }
            task["title"] = .string("two\(step)")
            try c.addTask("t\(step)", to: list, at: Int64(rng.below(12)))
            return "rename \(task.objectID) and add to \(list.objectID)"
        }
    }

    /// What is wrong now: controllers against their batches, a fresh fetch and the plain reading of their
    /// requests; the stored counts against the rows.
    static func check(_ watched: [(recorder: ResultsRecorder, shown: Shown)], _ store: Store) throws -> [String] {
        let reader = Context(store: store)
        var tasks: [Int64: StoredTask] = [:]
        for row in try reader.fetchValues(FetchRequest("Task"), keys: ["list", "position", "done"]) {
            tasks[row.id.rowID] = StoredTask(
                list: Int64(value: row.values[0]), position: Int64(value: row.values[1]) ?? -1,
                done: Bool(value: row.values[2]) ?? false)
        }
        var lists: [(id: Int64, name: String)] = []
        var problems: [String] = []
        for row in try reader.fetchValues(FetchRequest("List"), keys: ["name", "taskCount"]) {
            lists.append((row.id.rowID, String(value: row.values[0]) ?? ""))
            let members = tasks.values.filter { $0.list == row.id.rowID }.count
            if Int64(value: row.values[1]) != Int64(members) {
                problems.append("list \(row.id) stores \(row.values[1]) tasks but has \(members)")
            }
        }
        for (recorder, shown) in watched {
            problems += recorder.failures.map { "\(shown): \($0)" }
            _ = recorder.take()  // checked as they came (the failures); only the list matters from here
            // A paused controller shows what it showed; an invalidated one shows nothing for good, even when
            // an undo brings its list back.
            guard !recorder.controller.isPaused && !recorder.controller.isInvalidated else { continue }
            try recorder.checkAgainstFetch(store)
            let want = expected(shown, tasks, lists)
            let have = ResultsRecorder.sections(of: recorder.controller)
            if have != want { problems.append("\(shown) shows \(have), its request means \(want)") }
        }
        return problems
    }

    /// The sections of IDs `shown` means over the stored rows, worked out without the store.
    static func expected(_ shown: Shown, _ tasks: [Int64: StoredTask], _ lists: [(id: Int64, name: String)]) -> [[Int64]] {
        guard let list = shown.list else {
            return [lists.sorted { ($0.name, $0.id) < ($1.name, $1.id) }.map(\.id)]
        }
        let ascending = !shown.descending
        let rows = tasks.filter { $0.value.list == list && !(shown.openOnly && $0.value.done) }.sorted { a, b in
            if shown.sectioned && a.value.done != b.value.done { return !a.value.done }
            if a.value.position != b.value.position { return (a.value.position < b.value.position) == ascending }
            return (a.key < b.key) == ascending
        }
        let window = Array(rows.dropFirst(shown.offset).prefix(shown.limit ?? rows.count))
        guard shown.sectioned else { return [window.map(\.key)] }
        var sections: [[Int64]] = []
        var last: Bool?
        for (id, task) in window {
            if task.done != last { sections.append([]) }
            sections[sections.count - 1].append(id)
            last = task.done
        }
        return sections
    }
}
