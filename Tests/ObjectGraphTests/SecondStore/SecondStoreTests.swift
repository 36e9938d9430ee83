import Foundation
import TestSupport
import Testing

@testable import ObjectGraph

/// The same scenarios on the SQLite store type and on `MemoryStore`, a second store type written only
/// against `PersistentStore`: each scenario checks its own expectations on either, and writes a transcript
/// (titles, IDs, counts, batches, errors) that must be the same line for line on both.
@Suite struct SecondStoreTests {
    // MARK: - Store types

    /// The store type a scenario runs on.
    enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case sqlite, memory

        var testDescription: String { rawValue }

        /// One store.
        func make() throws -> Store {
            switch self {
            case .sqlite: return try Store(inMemoryWith: SecondStoreTests.model)
            case .memory: return try MemoryStore(model: SecondStoreTests.model).makeStore()
            }
        }

        /// Two stores on one backend, as two processes on one file: each has its own cursor into the
        /// change log and sees the other's commits only through `poll()`.
        func makePair() throws -> Pair {
            switch self {
            case .sqlite:
                let dir = TemporaryDirectory()
                let model = SecondStoreTests.model
                return Pair(one: try Store(path: dir.path(), model: model), two: try Store(path: dir.path(), model: model), dir: dir)
            case .memory:
                let backend = MemoryStore(model: SecondStoreTests.model)
                return Pair(one: try backend.makeStore(), two: try backend.makeStore(), dir: nil)
            }
        }
    }

    final class Pair {
        let one: Store
        let two: Store
        /// Keeps the SQLite file's folder while the stores live.
        let dir: TemporaryDirectory?
        init(one: Store, two: Store, dir: TemporaryDirectory?) {
            self.one = one
            self.two = two
            self.dir = dir
        }
    }

    /// A scenario: run on one store type, it checks what it expects and returns its transcript.
    struct Scenario: Sendable, CustomTestStringConvertible {
        let name: String
        let run: @Sendable (Kind) throws -> [String]
        var testDescription: String { name }

        static let all: [Scenario] =
            [
                Scenario(name: "insert, fetch, sort, window") { try SecondStoreTests.insertFetchSortWindow($0) },
                Scenario(name: "pending changes in fetches") { try SecondStoreTests.pendingChangesInFetches($0) },
                Scenario(name: "updates, deletes, cascades, counts") { try SecondStoreTests.updatesDeletesAndCounts($0) },
                Scenario(name: "descendants") { try SecondStoreTests.descendants($0) },
                Scenario(name: "transactions roll back") { try SecondStoreTests.transactionsRollBack($0) },
                Scenario(name: "conflicts with another process") { try SecondStoreTests.conflictsWithAnotherProcess($0) },
                Scenario(name: "undo and redo round trips") { try SecondStoreTests.undoRedoRoundTrips($0) },
                Scenario(name: "undo conflicts") { try SecondStoreTests.undoConflicts($0) },
                Scenario(name: "polling a second store") { try SecondStoreTests.pollingASecondStore($0) },
                Scenario(name: "check and repair") { try SecondStoreTests.checkAndRepair($0) }
            ]
            + randomSeeds.map { seed in
                Scenario(name: "results under random edits, seed \(seed)") { try SecondStoreTests.randomEdits($0, seed: seed) }
            }

        static let randomSeeds: [UInt64] = [1, 2, 3]
    }

    @Test(arguments: Scenario.all, Kind.allCases)
    func scenario(_ scenario: Scenario, on kind: Kind) throws {
        _ = try scenario.run(kind)
    }

    @Test(arguments: Scenario.all)
    func bothStoreTypesAgree(_ scenario: Scenario) throws {
        let sqlite = try scenario.run(.sqlite)
        let memory = try scenario.run(.memory)
        if let k = (0..<min(sqlite.count, memory.count)).first(where: { sqlite[$0] != memory[$0] }) {
            Issue.record("\(scenario.name): line \(k) differs\n  sqlite: \(sqlite[k])\n  memory: \(memory[k])")
        } else {
            #expect(sqlite.count == memory.count, "\(scenario.name): \(sqlite.count) lines on SQLite, \(memory.count) in memory")
        }
        #expect(!sqlite.isEmpty)
    }

    /// `PersistentStore.descendants` says the root is excluded and every row comes once, a cycle ending
    /// the walk. A cycle back to the root is where SQLite's recursive query differs: `UNION` keeps each row
    /// once, but nothing keeps the root out of it (see the report of this branch).
    @Test(arguments: Kind.allCases)
    func aCycleBackToTheRootEndsTheWalk(_ kind: Kind) throws {
        let store = try kind.make()
        let c = Context(store: store)
        let x = try Self.task(c, "x", in: nil, at: 0)
        let y = try Self.task(c, "y", in: nil, at: 0, parent: x)
        let z = try Self.task(c, "z", in: nil, at: 0, parent: y)
        try c.save()
        x.setObject(z, for: "parent")  // x → y → z → x
        try c.save()
        let below = try c.descendantIDs(of: x, through: "subtasks")
        let count = try c.countDescendants(of: x, through: "subtasks")
        let check = {
            #expect(below.sorted() == [y.objectID.rowID, z.objectID.rowID], "\(kind)")
            #expect(count == 2, "\(kind)")
        }
        check()
    }

    /// A store whose log was pruned past a reader's cursor: that reader cannot know what changed and re-reads
    /// everything (only the memory store can prune on demand; SQLite keeps ten minutes of log). With
    /// `pollFirst` false the reader has never taken in a log entry: its cursor is where the log stood when it
    /// opened, so the gap still shows.
    @Test(arguments: [true, false])
    func aReaderBehindThePrunedLogRereadsEverything(pollFirst: Bool) throws {
        let backend = MemoryStore(model: Self.model, logLimit: 2)
        let one = try backend.makeStore(), two = try backend.makeStore()
        let mine = Context(store: one)
        let lists = try Self.seed(mine)
        if pollFirst { #expect(try two.poll() == 1) }
        let theirs = Context(store: two)
        let controller = ResultsController(context: theirs, request: Self.tasks(Property("list") == lists[0].objectID, [SortKey("position")]))
        let recorder = try SecondStoreRecorder("home on two", controller)
        let milk = try #require(try theirs.existingObject(for: try Self.named(mine, "Milk").objectID))
        #expect(milk["title"] == "Milk")
        for k in 0..<4 {
            try Self.task(mine, "more \(k)", in: lists[0], at: Double(k) + 0.25)
            try mine.save()
        }
        try Self.named(mine, "Milk")["title"] = "Oat milk"
        try mine.save()
        #expect(backend.state.log.map(\.seq) == [5, 6])
        try two.poll()
        try recorder.checkAgainstFetch(two)
        let title = milk["title"], count = controller.count, failures = recorder.failures
        let check = {
            #expect(title == "Oat milk")
            #expect(count == 6)
            #expect(failures.isEmpty, "\(failures)")
        }
        check()
    }

    // MARK: - Model

    /// Lists of tasks ordered by position, each list with the number of its tasks kept by the store; tasks
    /// with subtasks (a self-relationship, also counted); deleting a list or a task takes what is in it.
    static let model = try! Model {
        Entity("List") {
            Attribute("title", .string, default: "")
            Attribute("code", .string, optional: true, unique: true)
            Attribute.count("taskCount", of: "tasks")
            Relationship.toMany("tasks", "Task", inverse: "list", deleteRule: .cascade)
        }
        Entity("Task") {
            Attribute("title", .string, default: "")
            Attribute("position", .double, default: 0.0)
            Attribute("done", .bool, default: false)
            Attribute("note", .string, optional: true)
            Attribute.count("subtaskCount", of: "subtasks")
            Relationship.toOne("list", "List", inverse: "tasks")
            Relationship.toOne("parent", "Task", inverse: "subtasks")
            Relationship.toMany("subtasks", "Task", inverse: "parent", deleteRule: .cascade)
        }
    }

    static func list(_ c: Context, _ title: String, code: String? = nil) throws -> ManagedObject {
        let l = try c.insert("List")
        l["title"] = .string(title)
        l["code"] = code.map(Value.string) ?? .null
        return l
    }

    @discardableResult
    static func task(
        _ c: Context, _ title: String, in list: ManagedObject?, at position: Double, done: Bool = false, note: String? = nil,
        parent: ManagedObject? = nil
    ) throws -> ManagedObject {
        let t = try c.insert("Task")
        t["title"] = .string(title)
        t["position"] = .double(position)
        t["done"] = .bool(done)
        t["note"] = note.map(Value.string) ?? .null
        t.setObject(list, for: "list")
        t.setObject(parent, for: "parent")
        return t
    }

    /// Three lists (Home, Work, Errands) and seven tasks, saved; the undo history starts empty.
    static func seed(_ c: Context) throws -> [ManagedObject] {
        let lists = [try list(c, "Home", code: "H"), try list(c, "Work", code: "W"), try list(c, "Errands")]
        let specs: [(String, Int, Double, Bool, String?)] = [
            ("Milk", 0, 1, false, nil), ("Bread", 0, 2, true, "wholegrain"), ("bills", 1, 0.5, false, "Due Friday"),
            ("Report", 1, 3, true, nil), ("Email Bob", 1, 1.5, false, "re: budget"), ("Post office", 2, 1, false, "stamps"),
            ("bank", 2, 2, true, "")
        ]
        for (title, l, position, done, note) in specs { try task(c, title, in: lists[l], at: position, done: done, note: note) }
        try c.save()
        try c.undoHistory.clear()
        return lists
    }

    static func titles(_ c: Context, _ r: FetchRequest) throws -> [String] {
        try c.fetch(r).map { $0["title"] as String }
    }

    static func tasks(_ p: ObjectPredicate = .true, _ keys: [SortKey] = [SortKey("title")], limit: Int? = nil, offset: Int = 0) -> FetchRequest {
        var r = FetchRequest("Task", where: p, sortedBy: keys)
        r.limit = limit
        r.offset = offset
        return r
    }

    /// The task titled `title`, read in `c`.
    static func named(_ c: Context, _ title: String) throws -> ManagedObject {
        try #require(try c.fetch(tasks(Property("title") == title)).first, "no task \(title)")
    }

    /// Every stored row as the store holds it (read without objects), by ID: the whole state to compare.
    static func dump(_ store: Store) throws -> [String] {
        let c = Context(store: store)
        let lists = try c.fetchValues(FetchRequest("List"), keys: ["title", "code", "taskCount"])
        let tasks = try c.fetchValues(FetchRequest("Task"), keys: ["title", "position", "done", "note", "list", "parent", "subtaskCount"])
        return lists.map { "List \($0.id) \($0.values)" } + tasks.map { "Task \($0.id) \($0.values)" }
    }

    /// True when every stored count equals its members counted one by one, and the store finds nothing wrong.
    static func countsAreRight(_ store: Store) throws -> Bool {
        let c = Context(store: store)
        for l in try c.fetch(FetchRequest("List")) {
            let n = try c.count(tasks(Property("list") == l.objectID))
            if l["taskCount"] != .integer(Int64(n)) { return false }
        }
        for t in try c.fetch(FetchRequest("Task")) {
            let n = try c.count(tasks(Property("parent") == t.objectID))
            if t["subtaskCount"] != .integer(Int64(n)) { return false }
        }
        return try store.check().isEmpty
    }

    // MARK: - Scenarios

    static func insertFetchSortWindow(_ kind: Kind) throws -> [String] {
        let store = try kind.make()
        let lists = try seed(Context(store: store))
        let (home, work, errands) = (lists[0].objectID, lists[1].objectID, lists[2].objectID)
        let c = Context(store: store)
        var out: [String] = []
        func check(_ label: String, _ r: FetchRequest, _ expected: [String]) throws {
            let got = try titles(c, r)
            #expect(got == expected, "\(kind): \(label)")
            out.append("\(label): \(got) ids \(try c.fetch(r).rowIDs) count \(try c.count(r))")
        }
        try check("work by position", tasks(Property("list") == work, [SortKey("position")]), ["bills", "Email Bob", "Report"])
        try check("done, title descending", tasks(Property("done") == true, [SortKey("title", ascending: false)]), ["bank", "Report", "Bread"])
        // NULL sorts first ascending and last descending, as in SQLite; ties go by ID in the last key's direction.
        try check("note ascending", tasks(.true, [SortKey("note")]), ["Milk", "Report", "bank", "bills", "Email Bob", "Post office", "Bread"])
        try check(
            "note descending", tasks(.true, [SortKey("note", ascending: false)]),
            ["Bread", "Post office", "Email Bob", "bills", "bank", "Report", "Milk"])
        try check("window 2+3", tasks(limit: 3, offset: 2), ["Milk", "Post office", "Report"])
        try check("window past the end", tasks(limit: 3, offset: 10), [])
        try check("offset only", tasks(offset: 5), ["bank", "bills"])
        try check("contains b, any case", tasks(Property("title").contains("B", caseInsensitive: true)), ["Bread", "Email Bob", "bank", "bills"])
        try check("begins with B", tasks(Property("title").beginsWith("B")), ["Bread"])
        try check("ends with k", tasks(Property("title").endsWith("k")), ["Milk", "bank"])
        try check("position ≥ 1.5 and not done", tasks(Property("position") >= 1.5 && !(Property("done") == true)), ["Email Bob"])
        try check("one of", tasks(Property("title").oneOf(["Milk", "bank", "nope"])), ["Milk", "bank"])
        try check("no note", tasks(Property("note").isNil), ["Milk", "Report"])
        try check("some note", tasks(!Property("note").isNil), ["Bread", "Email Bob", "Post office", "bank", "bills"])
        try check("note < m", tasks(Property("note") < "m"), ["bank", "bills"])
        try check("done or errands", tasks(Property("done") == true || Property("list") == errands), ["Bread", "Post office", "Report", "bank"])
        try check("not home", tasks(!(Property("list") == home)), ["Email Bob", "Post office", "Report", "bank", "bills"])
        try check(
            "done then position descending", tasks(.true, [SortKey("done"), SortKey("position", ascending: false)]),
            ["Email Bob", "Post office", "Milk", "bills", "Report", "bank", "Bread"])
        try check(
            "by list then title", tasks(.true, [SortKey("list"), SortKey("title")]),
            ["Bread", "Milk", "Email Bob", "Report", "bills", "Post office", "bank"])

        // Values without objects, typed as the attributes say.
        let values = try c.fetchValues(tasks(limit: 4, offset: 1), keys: ["title", "position", "done", "note", "list"])
        #expect(values.map(\.values[0]) == ["Email Bob", "Milk", "Post office", "Report"])
        #expect(values[0].values[1] == .double(1.5) && values[0].values[2] == .bool(false) && values[1].values[3] == .null)
        out.append("values: \(values.map { "\($0.id) \($0.values)" })")

        // Named properties read with the IDs (partial faults), then the rest of a row on demand.
        var prefetching = tasks(Property("list") == home, [SortKey("position")])
        prefetching.propertiesToFetch = ["title"]
        let partial = try c.fetch(prefetching)
        #expect(partial.map { $0["title"] as String } == ["Milk", "Bread"])
        #expect(partial[1]["note"] == "wholegrain" && partial[1]["done"] == true)
        out.append("prefetched: \(partial.rowIDs)")

        // Counts the store kept while inserting owners with their members.
        let byCount = try c.fetch(FetchRequest("List", sortedBy: [SortKey("taskCount", ascending: false), SortKey("title")]))
        #expect(byCount.map { $0["title"] as String } == ["Work", "Errands", "Home"])
        #expect(byCount.map { $0["taskCount"] as Value } == [3, 2, 2])
        out.append("lists by count: \(byCount.map { "\($0["title"]) \($0["taskCount"])" })")
        #expect(try c.count(FetchRequest("Task")) == 7)
        var limited = tasks(Property("done") == false)
        limited.limit = 2
        #expect(try c.count(limited) == 2)

        // One object by ID; an ID with no row.
        let milk = try #require(try c.existingObject(for: try named(c, "Milk").objectID))
        #expect(milk.object("list")?.objectID == home)
        #expect(try Context(store: store).existingObject(for: ObjectID(entity: 1, rowID: 999)) == nil)
        // A to-many read from the store: the rows whose key holds the owner.
        let homeHere = try #require(try c.existingObject(for: home))
        #expect(Set(homeHere.objects("tasks").map { $0["title"] as String }) == ["Milk", "Bread"])
        #expect(try store.check().isEmpty)
        out += try dump(store)
        return out
    }

    static func pendingChangesInFetches(_ kind: Kind) throws -> [String] {
        let store = try kind.make()
        let lists = try seed(Context(store: store))
        let home = lists[0].objectID
        let p = Context(store: store)
        var out: [String] = []
        let apples = try task(p, "Apples", in: try p.existingObject(for: home), at: 0.5)
        try named(p, "Bread")["title"] = "Zucchini bread"
        p.delete(try named(p, "Milk"))
        try named(p, "bills")["done"] = true
        func check(_ label: String, _ r: FetchRequest, _ expected: [String]) throws {
            let got = try titles(p, r)
            #expect(got == expected, "\(kind): \(label)")
            out.append("\(label): \(got) count \(try p.count(r))")
        }
        let homeTasks = tasks(Property("list") == home, [SortKey("position")])
        try check("home with pending", homeTasks, ["Apples", "Zucchini bread"])
        var stored = homeTasks
        stored.includesPendingChanges = false
        // The stored rows, made into this context's objects: they show its unsaved values.
        try check("home as stored", stored, ["Milk", "Zucchini bread"])
        try check("done with pending", tasks(Property("done") == true), ["Report", "Zucchini bread", "bank", "bills"])
        var doneStored = tasks(Property("done") == true)
        doneStored.includesPendingChanges = false
        try check("done as stored", doneStored, ["Zucchini bread", "Report", "bank"])
        try check("window with pending", tasks(limit: 3, offset: 1), ["Email Bob", "Post office", "Report"])
        try check(
            "descending window with pending", tasks(.true, [SortKey("position", ascending: false)], limit: 2, offset: 2),
            ["Zucchini bread", "Email Bob"])
        var prefetching = tasks(Property("title").contains("a"))
        prefetching.propertiesToFetch = ["title"]
        try check("prefetch with pending", prefetching, ["Email Bob", "Zucchini bread", "bank"])
        #expect(try p.count(FetchRequest("Task")) == 7)
        p.rollback()
        #expect(apples.context == nil)
        try check("home after rollback", homeTasks, ["Milk", "Bread"])
        #expect(try p.count(FetchRequest("Task")) == 7)
        out += try dump(store)
        return out
    }

    static func updatesDeletesAndCounts(_ kind: Kind) throws -> [String] {
        let store = try kind.make()
        let c = Context(store: store)
        let lists = try seed(c)
        let (home, work, errands) = (lists[0], lists[1], lists[2])
        // Another context on the store has read the counts before the changes.
        let other = Context(store: store)
        let theirHome = try #require(try other.existingObject(for: home.objectID))
        #expect(theirHome["taskCount"] == 2)
        var out: [String] = []

        let bills = try named(c, "bills")
        bills.setObject(home, for: "list")
        bills["title"] = "Pay bills"
        try c.save()
        #expect(home["taskCount"] == 3 && work["taskCount"] == 2)
        #expect(theirHome["taskCount"] == 3)
        out.append("after move: \(try dump(store))")

        c.delete(try named(c, "Milk"))
        try c.save()
        #expect(home["taskCount"] == 2)

        // Subtasks under a task: a count of its own, and deleting the task takes them.
        let report = try named(c, "Report")
        for k in 0..<3 { try task(c, "part \(k)", in: nil, at: Double(k), parent: report) }
        try c.save()
        #expect(report["subtaskCount"] == 3)
        #expect(try countsAreRight(store))

        c.delete(work)  // cascades to Report and Email Bob, and Report's subtasks
        try c.save()
        #expect(try titles(c, tasks()) == ["Bread", "Pay bills", "Post office", "bank"])
        #expect(try c.count(FetchRequest("List")) == 2)
        #expect(home["taskCount"] == 2 && errands["taskCount"] == 2)
        #expect(try countsAreRight(store))
        out.append("after cascade: \(try dump(store))")

        // Many members at once, into an owner inserted in the same save and into an existing one.
        let later = try list(c, "Later")
        for k in 0..<5 { try task(c, "later \(k)", in: later, at: Double(k)) }
        for k in 0..<4 { try task(c, "errand \(k)", in: errands, at: Double(10 + k)) }
        try c.save()
        #expect(later["taskCount"] == 5 && errands["taskCount"] == 6)
        #expect(try countsAreRight(store))
        out += try dump(store)
        return out
    }

    static func descendants(_ kind: Kind) throws -> [String] {
        let store = try kind.make()
        let c = Context(store: store)
        let lists = try seed(c)
        let top = try task(c, "top", in: lists[0], at: 9)
        let a = try task(c, "a", in: nil, at: 0, parent: top)
        let b = try task(c, "b", in: nil, at: 1, parent: top)
        let a1 = try task(c, "a1", in: nil, at: 0, parent: a)
        let a11 = try task(c, "a11", in: nil, at: 0, parent: a1)
        try task(c, "b1", in: nil, at: 0, parent: b)
        try c.save()
        let below = try c.descendantIDs(of: top, through: "subtasks")
        let expected = [a, b, a1, a11].map(\.objectID.rowID) + [try named(c, "b1").objectID.rowID]
        #expect(below.sorted() == expected.sorted())
        #expect(Set(below).count == below.count)
        #expect(try c.countDescendants(of: top, through: "subtasks") == 5)
        #expect(try c.countDescendants(of: a, through: "subtasks") == 2)
        #expect(try c.descendantIDs(of: a11, through: "subtasks").isEmpty)
        c.delete(top)
        try c.save()
        #expect(try c.count(FetchRequest("Task")) == 7)
        #expect(try countsAreRight(store))
        return ["below top: \(below.sorted())"] + (try dump(store))
    }

    struct Boom: Error {}

    static func transactionsRollBack(_ kind: Kind) throws -> [String] {
        let store = try kind.make()
        let c = Context(store: store)
        let lists = try seed(c)
        let home = lists[0]
        let before = try dump(store)
        var out: [String] = []

        // A throw inside the transaction: nothing written, nothing left in the context, no undo step.
        #expect(throws: Boom.self) {
            try c.transaction(actionName: "Add two") {
                try task(c, "one", in: home, at: 5)
                try task(c, "two", in: home, at: 6)
                throw Boom()
            }
        }
        #expect(!c.hasChanges && !c.undoHistory.canUndo)
        #expect(try dump(store) == before)
        #expect(home["taskCount"] == 2)

        // A failure of the store inside the transaction: a code another list has already.
        let clash = try #require(throws: StoreError.self) {
            try c.transaction(actionName: "Add list") {
                _ = try list(c, "Home again", code: "H")
                try task(c, "three", in: home, at: 7)
            }
        }
        #expect(clash.code == .uniqueConstraint && clash.entity == "List" && clash.property == "code")
        out.append("clash: \(clash.code) \(clash.message)")
        #expect(!c.hasChanges)
        #expect(try dump(store) == before)

        // The same unit of work when it can succeed; IDs reserved by the failed ones are not handed out again.
        let added = try c.transaction(actionName: "Add list") {
            let l = try list(c, "Garden", code: "G")
            try task(c, "three", in: l, at: 7)
            return l
        }
        #expect(added["taskCount"] == 1)
        #expect(c.undoHistory.undoActionName == "Add list")
        #expect(try countsAreRight(store))
        out.append("added \(added.objectID)")
        out += try dump(store)
        return out
    }

    static func conflictsWithAnotherProcess(_ kind: Kind) throws -> [String] {
        let pair = try kind.makePair()
        let mine = Context(store: pair.one)
        let lists = try seed(mine)
        let theirs = Context(store: pair.two)
        var out: [String] = []
        // They read a task, then this process deletes it: their change to it is a conflict, not lost.
        let report = try named(theirs, "Report")
        mine.delete(try named(mine, "Report"))
        try mine.save()
        report["title"] = "Quarterly report"
        let conflict = try #require(throws: StoreError.self) { try theirs.save() }
        #expect(conflict.code == .conflict && conflict.object == report.objectID)
        out.append("conflict: \(conflict.code) \(conflict.message)")
        theirs.rollback()

        // They move a task into a list this process deleted: the save names the dangling reference.
        let bread = try named(theirs, "Bread")
        let errands = try #require(try theirs.existingObject(for: lists[2].objectID))
        mine.delete(lists[2])
        try mine.save()
        bread.setObject(errands, for: "list")
        let dangling = try #require(throws: StoreError.self) { try theirs.save() }
        #expect(dangling.code == .foreignKey && dangling.object == bread.objectID && dangling.property == "list")
        out.append("dangling: \(dangling.code) \(dangling.message)")
        theirs.rollback()
        #expect(try countsAreRight(pair.one))
        // The seed and the two deletes were taken in by the rollbacks; their failed saves logged nothing.
        #expect(try pair.two.poll() == 0)
        out += try dump(pair.two)
        return out
    }

    static func undoRedoRoundTrips(_ kind: Kind) throws -> [String] {
        let store = try kind.make()
        let c = Context(store: store)
        let lists = try seed(c)
        var states = [try dump(store)]
        try named(c, "Milk")["title"] = "Oat milk"
        try c.save(actionName: "Rename")
        states.append(try dump(store))
        try named(c, "bills").setObject(lists[0], for: "list")
        try c.save(actionName: "Move")
        states.append(try dump(store))
        try task(c, "sub", in: nil, at: 0, parent: try named(c, "Report"))
        try c.save(actionName: "Add subtask")
        states.append(try dump(store))
        c.delete(lists[1])  // Work, with its tasks and the subtask
        try c.save(actionName: "Delete Work")
        states.append(try dump(store))
        try task(c, "New", in: lists[2], at: 0)
        try c.save(actionName: "Add")
        states.append(try dump(store))

        var out: [String] = []
        for round in 0..<2 {
            for k in stride(from: states.count - 1, to: 0, by: -1) {
                let name = try c.undo()
                out.append("round \(round) undo \(name ?? "nothing")")
                #expect(try dump(store) == states[k - 1], "\(kind): undo \(name ?? "") in round \(round)")
                #expect(try countsAreRight(store))
            }
            #expect(try c.undo() == nil)
            for k in 1..<states.count {
                let name = try c.redo()
                out.append("round \(round) redo \(name ?? "nothing")")
                #expect(try dump(store) == states[k], "\(kind): redo \(name ?? "") in round \(round)")
                #expect(try countsAreRight(store))
            }
        }
        // Objects read back after the round trips hold what the store holds.
        #expect(lists[1].isDeleted || lists[1].context == nil || lists[1].isInaccessible)
        let fresh = Context(store: store)
        #expect(try titles(fresh, tasks(Property("list") == lists[0].objectID, [SortKey("position")])) == ["bills", "Oat milk", "Bread"])
        out += states.flatMap { $0 }
        return out
    }

    static func undoConflicts(_ kind: Kind) throws -> [String] {
        let store = try kind.make()
        let c = Context(store: store)
        let lists = try seed(c)
        let other = Context(store: store)
        // Its saves are not actions (as changes arriving from a sync): undo here meets them as conflicts.
        other.undoHistory.recordsActions = false
        var out: [String] = []
        func expectConflict(_ reason: String) throws {
            let e = try #require(throws: UndoConflict.self) { try c.undo() }
            #expect(e.reason == reason, "\(kind): \(e)")
            #expect(!c.hasChanges)
            out.append("\(e)")
        }

        // Renamed here, deleted there.
        try named(c, "Milk")["title"] = "Oat milk"
        try c.save(actionName: "Rename Milk")
        other.delete(try named(other, "Oat milk"))
        try other.save()
        try expectConflict("was deleted elsewhere")

        // Renamed here, renamed there too.
        try named(c, "Report")["title"] = "Report (draft)"
        try c.save(actionName: "Rename Report")
        try named(other, "Report (draft)")["title"] = "Final report"
        try other.save()
        try expectConflict("was changed elsewhere (title)")

        // Moved here out of a list, and that list deleted there: undoing would point to nothing.
        try named(c, "bills").setObject(lists[2], for: "list")
        try c.save(actionName: "Move bills")
        other.delete(try #require(try other.existingObject(for: lists[1].objectID)))
        try other.save()
        let e = try #require(throws: UndoConflict.self) { try c.undo() }
        out.append("\(e)")
        #expect(!c.hasChanges)
        #expect(!c.undoHistory.canUndo)
        #expect(try titles(c, tasks(Property("list") == lists[2].objectID, [SortKey("position")])) == ["bills", "Post office", "bank"])
        #expect(try countsAreRight(store))
        out += try dump(store)
        return out
    }

    static func pollingASecondStore(_ kind: Kind) throws -> [String] {
        let pair = try kind.makePair()
        let one = Context(store: pair.one)
        let two = Context(store: pair.two)
        // Each writes over the other's commits it has not taken in (what is under test is the delivery).
        (one.mergePolicy, two.mergePolicy) = (.overwrite, .overwrite)
        let lists = try seed(one)
        #expect(try pair.two.poll() == 1)
        let home = lists[0]
        let controller = ResultsController(context: two, request: tasks(Property("list") == home.objectID, [SortKey("position")]))
        let recorder = try SecondStoreRecorder("home on two", controller)
        var out: [String] = []

        // Three commits on one: nothing on two until it polls, then all of them as one batch.
        try task(one, "Eggs", in: home, at: 1.5)
        try one.save()
        try named(one, "Milk")["position"] = 3.0
        try one.save()
        one.delete(try named(one, "Bread"))
        try one.save()
        #expect(recorder.batches.isEmpty)
        #expect(try pair.two.poll() == 3)
        #expect(recorder.batches.count == 1)
        try recorder.checkAgainstFetch(pair.two)
        #expect(controller.objectIDs.map { try! two.existingObject(for: $0)!["title"] as String } == ["Eggs", "Milk"])
        #expect(try pair.two.poll() == 0)
        out += recorder.take()

        // Two's own commit is not brought back to it; one finds it.
        try named(two, "Eggs")["title"] = "Free-range eggs"
        try two.save()
        out += recorder.take()
        #expect(try pair.two.poll() == 0)
        #expect(try pair.one.poll() == 1)
        #expect(try named(one, "Free-range eggs")["position"] == 1.5)

        // Both add to one list without polling: each reads a stale count, the store keeps the right one.
        let work = try #require(try two.existingObject(for: lists[1].objectID))
        #expect(work["taskCount"] == 3)
        for k in 0..<5 {
            try task(one, "one \(k)", in: lists[1], at: Double(10 + k))
            try one.save()
            try task(two, "two \(k)", in: work, at: Double(20 + k))
            try two.save()
        }
        #expect(work["taskCount"] == 13)
        // Each save took in the other's commits before it (see `Store.deliver`): only two's last is new to one.
        #expect(try pair.one.poll() == 1 && pair.two.poll() == 0)
        #expect(lists[1]["taskCount"] == 13)
        #expect(try countsAreRight(pair.one))
        try recorder.checkAgainstFetch(pair.two)
        out += recorder.take()
        for f in recorder.failures { Issue.record("\(kind): \(f)") }
        out += try dump(pair.one)
        return out
    }

    static func checkAndRepair(_ kind: Kind) throws -> [String] {
        let store = try kind.make()
        let c = Context(store: store)
        let lists = try seed(c)
        #expect(try store.check().isEmpty)
        let home = lists[0].objectID
        let milk = try named(c, "Milk").objectID
        // Damage the stored rows behind every context's back, as another tool might.
        switch kind {
        case .sqlite:
            try SecondStoreSQL.execute(store, #"UPDATE "List" SET taskCount = 9 WHERE id = ?"#, home.rowID)
            try SecondStoreSQL.execute(store, #"UPDATE "Task" SET title = NULL WHERE id = ?"#, milk.rowID)
        case .memory:
            let backend = store.backend as! MemoryStore
            backend.damage(home, slot: lists[0].entity.slot("taskCount")!, to: 9)
            backend.damage(milk, slot: model.entity("Task")!.slot("title")!, to: .null)
        }
        let problems = try store.check()
        #expect(problems.map(\.kind) == [.missingValue, .count])
        let repairs = try store.repairDerived()
        #expect(repairs == ["gave 1 missing required value their defaults", "counted again 1 stored count that were wrong"])
        #expect(try store.check().isEmpty)
        #expect(try store.repairDerived().isEmpty)
        store.checkpoint()
        return problems.map(\.description) + repairs + (try dump(store))
    }

    // MARK: - Results controllers under random edits

    static func randomEdits(_ kind: Kind, seed: UInt64) throws -> [String] {
        var rng = SecondStoreRandom(seed: seed)
        let store = try kind.make()
        let a = Context(store: store), b = Context(store: store)
        // Random edits race on purpose: last writer wins (what is under test is the results).
        (a.mergePolicy, b.mergePolicy) = (.overwrite, .overwrite)
        let lists = try Self.seed(a)
        let home = lists[0]
        var window = tasks(Property("title").contains("1") || Property("note").isNil, [SortKey("note"), SortKey("title")])
        window.limit = 4
        window.offset = 1
        var prefetching = tasks(Property("list") == home.objectID, [SortKey("position")])
        prefetching.propertiesToFetch = ["title", "done"]
        let recorders = [
            try SecondStoreRecorder("home", ResultsController(context: a, request: tasks(Property("list") == home.objectID, [SortKey("position")]))),
            try SecondStoreRecorder("home named", ResultsController(context: a, request: prefetching)),
            try SecondStoreRecorder(
                "by done",
                ResultsController(context: a, request: tasks(.true, [SortKey("done"), SortKey("position", ascending: false)]), sectionKey: "done")),
            try SecondStoreRecorder("window", ResultsController(context: a, request: window)),
            try SecondStoreRecorder(
                "lists",
                ResultsController(context: a, request: FetchRequest("List", sortedBy: [SortKey("taskCount", ascending: false), SortKey("title")]))),
            try SecondStoreRecorder(
                "on b", ResultsController(context: b, request: tasks(Property("done") == false, [SortKey("list"), SortKey("position")])))
        ]
        func pick<T>(_ xs: [T]) -> T? { xs.isEmpty ? nil : xs[Int(rng.next() % UInt64(xs.count))] }
        func position() -> Double { Double(rng.next() % 40) / 4 }  // ties on purpose
        var out: [String] = []
        for step in 0..<120 {
            // Picked by ID order, which both store types share.
            let taskIDs = try a.fetch(FetchRequest("Task")).objectIDs
            let listIDs = try a.fetch(FetchRequest("List")).objectIDs
            let anyTask = pick(taskIDs).map { a.object(for: $0) }
            let anyList = pick(listIDs).map { a.object(for: $0) }
            let op = rng.next() % 16
            var did = "step \(step): "
            do {
                switch op {
                case 0, 1, 2:
                    let note: String? = rng.next() % 3 == 0 ? nil : "n\(rng.next() % 5)"
                    let t = try task(a, "t\(step)", in: anyList, at: position(), done: rng.next() % 2 == 0, note: note)
                    did += "insert \(t.objectID)"
                case 3:
                    if let t = anyTask { t["title"] = .string("r\(step)"); did += "rename \(t.objectID)" }
                case 4:
                    if let t = anyTask { t["position"] = .double(position()); did += "reposition \(t.objectID)" }
                case 5:
                    if let t = anyTask { t["done"] = .bool(!(t["done"] as Bool)); did += "toggle \(t.objectID)" }
                case 6:
                    if let t = anyTask, let l = anyList { t.setObject(l, for: "list"); did += "move \(t.objectID) to \(l.objectID)" }
                case 7:
                    if let t = anyTask { t["note"] = rng.next() % 2 == 0 ? .null : .string("n\(step % 7)"); did += "note \(t.objectID)" }
                case 8:
                    if let t = anyTask { a.delete(t); did += "delete \(t.objectID)" }
                case 9:
                    if listIDs.count < 6 { did += "add list \(try list(a, "L\(step)").objectID)" }
                case 10:
                    if listIDs.count > 3, let l = pick(listIDs.filter { $0 != home.objectID }) {
                        a.delete(a.object(for: l))
                        did += "delete list \(l)"
                    }
                case 11:
                    if let t = anyTask { did += "subtask \(try task(a, "s\(step)", in: nil, at: 0, parent: t).objectID)" }
                case 12:
                    did += "undo \(try a.undo() ?? "nothing")"
                case 13:
                    did += "redo \(try a.redo() ?? "nothing")"
                case 14:
                    if let id = pick(try b.fetch(FetchRequest("Task")).objectIDs) {
                        let t = b.object(for: id)
                        t["title"] = .string("b\(step)")
                        t["done"] = .bool(rng.next() % 2 == 0)
                        try b.save()
                        did += "b edits \(id)"
                    }
                default:
                    #expect(throws: Boom.self) {
                        try a.transaction(actionName: "nothing") {
                            try task(a, "never", in: home, at: 0)
                            throw Boom()
                        }
                    }
                    did += "rolled back"
                }
                if a.hasChanges { try a.save(actionName: "step \(step)") }
            } catch let e as UndoConflict {
                did += "conflict: \(e)"
            }
            out.append(did)
            for r in recorders {
                try r.checkAgainstFetch(store)
                out += r.take()
            }
            if step % 20 == 19 {
                #expect(try countsAreRight(store), "\(kind), seed \(seed), step \(step)")
            }
        }
        for r in recorders {
            for f in r.failures { Issue.record("\(kind), seed \(seed): \(r.name): \(f)") }
            out.append("\(r.name): \(SecondStoreSections.sections(of: r.controller))")
        }
        out += try dump(store)
        return out
    }
}

/// Collects the batches a controller delivers and checks each against the list it had before: the batch
/// applied to the old list must give the controller's new list, which must equal a fresh fetch.
final class SecondStoreRecorder {
    let name: String
    let controller: ResultsController
    private(set) var batches: [ResultsBatch] = []
    private var last: [[Int64]]
    var failures: [String] = []

    init(_ name: String, _ controller: ResultsController) throws {
        self.name = name
        self.controller = controller
        try controller.performFetch()
        last = SecondStoreSections.sections(of: controller)
        controller.onChange = { [unowned self] batch in self.receive(batch) }
    }

    /// The batches delivered since the last call, as text.
    func take() -> [String] {
        defer { batches = [] }
        return batches.map { "\(name): \($0)" }
    }

    private func receive(_ batch: ResultsBatch) {
        batches.append(batch)
        let now = SecondStoreSections.sections(of: controller)
        let applied = batch.apply(to: last) { controller.objectID(at: $0).rowID }
        if applied != now { failures.append("batch \(batch) applied to \(last) gives \(applied), controller has \(now)") }
        last = now
    }

    /// The controller's list against a fresh fetch of its request in a new context.
    func checkAgainstFetch(_ store: Store) throws {
        let fresh = try Context(store: store).fetch(controller.request).rowIDs
        let mine = controller.objectIDs.map(\.rowID)
        if fresh != mine { failures.append("controller has \(mine), a fresh fetch gives \(fresh)") }
        if !controller.isInvalidated && last.flatMap({ $0 }) != mine {
            failures.append("recorded \(last) but controller has \(mine)")
        }
    }
}

enum SecondStoreSections {
    /// A controller's rows as sections of row IDs.
    static func sections(of c: ResultsController) -> [[Int64]] {
        (0..<c.numberOfSections).map { s in
            (0..<c.numberOfRows(inSection: s)).map { c.objectID(at: ResultIndex(s, $0)).rowID }
        }
    }
}

/// SplitMix64: the same numbers for the same seed everywhere.
struct SecondStoreRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
