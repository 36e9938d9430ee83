import Foundation
import TestSupport
import Testing

@testable import ObjectGraph

@Suite struct FetchTests {
    static let model = try! Model {
        Entity("P") {
            Attribute("name", .string, optional: true)
            Attribute("n", .integer64, optional: true)
            Attribute("x", .double, optional: true)
            Attribute("flag", .bool, default: false)
            Attribute("when", .date, optional: true)
        }
    }

    static let predicates: [(String, ObjectPredicate)] = {
        var out: [(String, ObjectPredicate)] = []
        func add(_ name: String, _ p: ObjectPredicate) { out.append((name, p)) }
        add("all", .true)
        add("none", .false)
        add("name == b", Property("name") == "b")
        add("name != b", Property("name") != "b")
        add("name nil", Property("name").isNil)
        add("n > 2", Property("n") > Int64(2))
        add("n <= 2", Property("n") <= Int64(2))
        add("x < 0.5", Property("x") < 0.5)
        add("x >= 0.5", Property("x") >= 0.5)
        add("flag", Property("flag") == true)
        add("not flag", !(Property("flag") == true))
        add("n in", Property("n").oneOf([Int64(1), 3, 5]))
        add("contains", Property("name").contains("a"))
        add("contains ci", Property("name").contains("A", caseInsensitive: true))
        add("begins", Property("name").beginsWith("ab"))
        add("ends", Property("name").endsWith("c"))
        add("ends empty", Property("name").endsWith(""))
        // As full-text search compares: case and diacritics folded, in any script.
        add("folded godel", Property("name").containsFolded("godel"))
        add("folded GÖ", Property("name").containsFolded("GÖ"))
        add("folded ss", Property("name").containsFolded("ss"))
        add("folded istanbul", Property("name").containsFolded("istanbul"))
        add("folded AB", Property("name").containsFolded("AB"))
        add("folded empty", Property("name").containsFolded(""))
        add("not folded b", !Property("name").containsFolded("b"))
        // The object's own row ID.
        add("id != 3", Property("id") != Int64(3))
        add("id < 40 and name", Property("id") < Int64(40) && !Property("name").isNil)
        let moreThanOne: ObjectPredicate = Property("n") > Int64(1)
        add("and", moreThanOne && Property("x") < 0.8)
        let zero: ObjectPredicate = Property("n") == Int64(0)
        add("or", zero || Property("name").isNil)
        add("date", Property("when") > Date(timeIntervalSince1970: 50))
        // Negations over columns that can be NULL: SQL's NULL must read as false under NOT too.
        add("not name == b", !(Property("name") == "b"))
        add("not n > 2", !(Property("n") > Int64(2)))
        add("not n in", !Property("n").oneOf([Int64(1), 3]))
        add("not contains", !Property("name").contains("a"))
        add("not ends", !Property("name").endsWith("c"))
        add("not (n == 1 or x < 0.5)", !(Property("n") == Int64(1) || Property("x") < 0.5))
        add("not not n == 1", !(!(Property("n") == Int64(1))))
        return out
    }()

    static let sorts: [[SortKey]] = [
        [], [SortKey("name")], [SortKey("n", ascending: false)],
        [SortKey("flag"), SortKey("x", ascending: false)], [SortKey("when")]
    ]

    /// Random rows with nulls, ties and mixed case.
    func populate(_ c: Context, count: Int, seed: UInt64) throws -> [ManagedObject] {
        var rng = SeededRandom(seed: seed)
        let names: [Value] = [.null, "a", "ab", "abc", "B", "b", "Cab", "c", "", "zz", "Gödel", "GÖDEL", "godot", "Straße", "İstanbul", "Ǆ"]
        var out: [ManagedObject] = []
        for _ in 0..<count {
            let p = try c.insert("P")
            p["name"] = names[Int(rng.next() % UInt64(names.count))]
            p["n"] = rng.next() % 7 == 0 ? .null : .integer(Int64(rng.next() % 6))
            p["x"] = rng.next() % 5 == 0 ? .null : .double(Double(rng.next() % 100) / 100)
            p["flag"] = .bool(rng.next() % 2 == 0)
            p["when"] = rng.next() % 4 == 0 ? .null : .date(Date(timeIntervalSince1970: Double(rng.next() % 100)))
            out.append(p)
        }
        return out
    }

    /// SQL and in-memory evaluation agree for every predicate; pending (unsaved) changes are merged in the
    /// same order a fresh fetch gives after saving.
    @Test func sqlAndMemoryAgreeAndPendingChangesMerge() throws {
        let store = try Store(inMemoryWith: Self.model)
        let c = Context(store: store)
        let all = try populate(c, count: 120, seed: 7)
        try c.save()
        for (name, p) in Self.predicates {
            let viaSQL = Set(try c.fetch(FetchRequest("P", where: p)).rowIDs)
            let viaMemory = Set(all.filter { p.evaluate($0) }.map(\.objectID.rowID))
            #expect(viaSQL == viaMemory, "\(name)")
        }
        // Unsaved edits: a fetch merges them; the same fetch after saving must give the same list.
        var rng = SeededRandom(seed: 99)
        for o in all where rng.next() % 4 == 0 { o["n"] = .integer(Int64(rng.next() % 6)) }
        for o in all where rng.next() % 9 == 0 { c.delete(o) }
        _ = try populate(c, count: 30, seed: 11)
        var pending: [String: [Int64]] = [:]
        for (name, p) in Self.predicates {
            for (k, sort) in Self.sorts.enumerated() {
                var r = FetchRequest("P", where: p, sortedBy: sort)
                pending["\(name)/\(k)"] = try c.fetch(r).rowIDs
                r.offset = 3
                r.limit = 5
                pending["\(name)/\(k)/window"] = try c.fetch(r).rowIDs
                pending["\(name)/\(k)/count"] = [Int64(try c.count(FetchRequest("P", where: p)))]
            }
        }
        try c.save()
        let fresh = Context(store: store)
        for (name, p) in Self.predicates {
            for (k, sort) in Self.sorts.enumerated() {
                var r = FetchRequest("P", where: p, sortedBy: sort)
                #expect(try fresh.fetch(r).rowIDs == pending["\(name)/\(k)"], "\(name)/\(k)")
                r.offset = 3
                r.limit = 5
                #expect(try fresh.fetch(r).rowIDs == pending["\(name)/\(k)/window"], "\(name)/\(k) window")
                #expect([Int64(try fresh.count(FetchRequest("P", where: p)))] == pending["\(name)/\(k)/count"])
            }
        }
    }

    /// Values without objects: the same rows, order and values as a fetch of objects, and no object made.
    @Test func fetchValuesMatchesObjects() throws {
        let store = try Store(inMemoryWith: Self.model)
        let c = Context(store: store)
        _ = try populate(c, count: 80, seed: 3)
        try c.save()
        let reader = Context(store: store)
        let keys = ["name", "n", "x", "flag", "when"]
        for (name, p) in Self.predicates {
            for (k, sort) in Self.sorts.enumerated() {
                var r = FetchRequest("P", where: p, sortedBy: sort)
                r.offset = k
                r.limit = k == 0 ? nil : 20
                let rows = try reader.fetchValues(r, keys: keys)
                #expect(reader.statistics.objectsCreated == 0)
                let objects = try c.fetch(r)
                #expect(rows.map(\.id) == objects.objectIDs, "\(name)/\(k)")
                #expect(rows.map(\.values) == objects.map { o in keys.map { o[$0] } }, "\(name)/\(k)")
            }
        }
        #expect(throws: StoreError.self) { try reader.fetchValues(FetchRequest("P"), keys: ["nope"]) }
    }

    /// Partial faults: a fetch naming `propertiesToFetch` reads only those; reading them fires no fault,
    /// touching another property loads the rest of that row only. A clean context reads them with the
    /// IDs, in one pass; a context with an unsaved change (undone, so the result is the same) merges it
    /// and reads in batches, which also read the sort keys to read on from one batch to the next.
    @Test func propertiesToFetchMakePartialFaults() throws {
        let store = try Store(inMemoryWith: Self.model)
        let c = Context(store: store)
        _ = try populate(c, count: 600, seed: 5)
        try c.save()
        let keys = ["name", "n", "x", "flag", "when"]
        for properties in [["name"], ["n", "flag"], [], keys] {
            for (k, sort) in Self.sorts.enumerated() {
                var r = FetchRequest("P", sortedBy: sort)
                let whole = try Context(store: store).fetch(r).map { o in keys.map { o[$0] } }
                r.propertiesToFetch = properties
                for batched in [false, true] {
                    let label = Comment(rawValue: "\(properties)/\(k)/\(batched ? "batches" : "one pass")")
                    let reader = Context(store: store)
                    reader.batchSize = 64
                    var touched: ObjectID?
                    if batched {
                        let o = try reader.fetch(FetchRequest("P"))[7]
                        let name = o["name"]
                        o["name"] = "changed"
                        o["name"] = name
                        touched = o.objectID
                    }
                    let before = reader.statistics
                    let objects = Array(try reader.fetch(r))
                    let read = Set(properties + (batched ? sort.map(\.key) : []))
                    #expect(objects.count == whole.count, label)
                    for (o, row) in zip(objects, whole) {
                        for (j, key) in keys.enumerated() where read.contains(key) { #expect(o[key] == row[j], label) }
                    }
                    #expect(reader.statistics.faultsFired == before.faultsFired, label)
                    #expect((reader.statistics.batchLoads > before.batchLoads) == batched, label)
                    // Prefetched objects stay faults even when every column was read: they have no values of their own.
                    let others = objects.enumerated().filter { $0.element.objectID != touched }
                    #expect(others.allSatisfy { $0.element.isFault == (!batched || read.count < keys.count) }, label)
                    // Anything else loads the rest of the row, one object at a time.
                    let sample = Array(others.prefix(3))
                    #expect(sample.map { s in keys.map { s.element[$0] } } == sample.map { whole[$0.offset] }, label)
                    #expect(reader.statistics.faultsFired - before.faultsFired == (read.count < keys.count ? 3 : 0), label)
                    #expect(sample.allSatisfy { !$0.element.isFault || (!batched && read.count == keys.count) }, label)
                }
            }
        }
        var bad = FetchRequest("P")
        bad.propertiesToFetch = ["nope"]
        #expect(throws: StoreError.self) { try c.fetch(bad) }
    }

    /// Rows read with the IDs are a snapshot: once this context saves, merges another's save or refreshes,
    /// elements not yet made into objects read the store again, and objects made from them follow changes
    /// like any other.
    @Test func prefetchedRowsAreNotUsedOnceStale() throws {
        let store = try Store(inMemoryWith: Self.model)
        let writer = Context(store: store)
        _ = try populate(writer, count: 40, seed: 9)
        try writer.save()
        var r = FetchRequest("P", sortedBy: [SortKey("n"), SortKey("name")])
        r.propertiesToFetch = ["name"]
        let names = { (c: Context) in try c.fetch(FetchRequest("P", sortedBy: [SortKey("n"), SortKey("name")])).map { $0["name"] } }

        // Another context's save.
        let reader = Context(store: store)
        let result = try reader.fetch(r)
        #expect(result[0]["name"] == (try names(writer))[0])
        let elsewhere = try writer.fetch(FetchRequest("P", sortedBy: [SortKey("n"), SortKey("name")]))
        elsewhere[0]["name"] = "first"
        elsewhere[5]["name"] = "fifth"
        try writer.save()
        #expect(result[5]["name"] == "fifth")
        #expect(result[0]["name"] == "first")

        // This context's own save: a deleted row is gone, not made again from the rows read before.
        let own = try reader.fetch(r)
        reader.delete(try reader.fetch(FetchRequest("P", sortedBy: [SortKey("n"), SortKey("name")]))[9])
        try reader.save()
        #expect(own[9].isInaccessible)

        // A change behind the context's back, seen after a refresh.
        let behind = try reader.fetch(r)
        try store.read { db in try db.execute(sql: "UPDATE P SET name = 'behind' WHERE n IS NOT NULL OR n IS NULL") }
        reader.refreshAll()
        #expect(behind[12]["name"] == "behind")
        #expect(try names(Context(store: store)) == behind.map { $0["name"] })
    }

    /// A partial fault is whole before it changes: saving it writes only what changed, and it follows
    /// what other contexts save.
    @Test func partialFaultsChangeSaveAndRefresh() throws {
        let store = try Store(inMemoryWith: Self.model)
        let writer = Context(store: store)
        _ = try populate(writer, count: 50, seed: 8)
        try writer.save()
        var r = FetchRequest("P", sortedBy: [SortKey("n")])
        let before = try Context(store: store).fetch(r).map { o in ["name", "n", "x", "flag", "when"].map { o[$0] } }
        r.propertiesToFetch = ["name"]
        let c = Context(store: store)
        let objects = Array(try c.fetch(r))
        objects[0]["flag"] = .bool(true)
        objects[1]["name"] = "changed"
        try c.save()
        let after = try Context(store: store).fetch(FetchRequest("P", sortedBy: [SortKey("n")]))
            .map { o in ["name", "n", "x", "flag", "when"].map { o[$0] } }
        var expected = before
        expected[0][3] = .bool(true)
        expected[1][0] = "changed"
        #expect(after == expected)

        // Another context's save reaches the partial faults; so does refreshAll after a change behind its back.
        let partial = Array(try c.fetch(r))
        _ = partial.map { $0["name"] }
        let other = Context(store: store)
        try other.fetch(FetchRequest("P", sortedBy: [SortKey("n")]))[2]["name"] = "elsewhere"
        try other.save()
        #expect(partial[2]["name"] == "elsewhere")
        try store.read { db in try db.execute(sql: "UPDATE P SET name = 'behind'") }
        c.refreshAll()
        #expect(partial.allSatisfy { $0["name"] == "behind" })
    }

    @Test func sortLimitOffset() throws {
        let c = Context(store: try Store(inMemoryWith: Self.model))
        for (i, name) in ["delta", "alpha", "charlie", "bravo", "echo"].enumerated() {
            let p = try c.insert("P")
            p["name"] = .string(name)
            p["n"] = .integer(Int64(i))
        }
        try c.save()
        var r = FetchRequest("P", sortedBy: [SortKey("name")])
        #expect(try c.fetch(r).map { $0["name"] as String } == ["alpha", "bravo", "charlie", "delta", "echo"])
        r.offset = 1
        r.limit = 2
        #expect(try c.fetch(r).map { $0["name"] as String } == ["bravo", "charlie"])
        #expect(try c.count(FetchRequest("P", where: Property("n") >= Int64(3))) == 2)
    }
}

/// `containsFolded` finds what full-text search finds: case and diacritics folded in any script, through
/// SQL (the store's C function, ASCII rows searched in place) and in memory alike.
@Suite struct FoldedContainsTests {
    @Test func foldedTextMatchesAsSearchDoes() throws {
        let model = try Model {
            Entity("P") { Attribute("name", .string, optional: true) }
        }
        let c = Context(store: try Store(inMemoryWith: model))
        let names = ["Gödel", "GÖDEL", "godot", "Straße", "STRASSE", "İstanbul", "istanbul", "Café au lait", "CAFE", "日本語", "plain"]
        var all: [ManagedObject] = []
        for n in names {
            let p = try c.insert("P")
            p["name"] = .string(n)
            all.append(p)
        }
        all.append(try c.insert("P"))  // no name
        try c.save()
        func found(_ needle: String) throws -> [String] {
            let p = Property("name").containsFolded(needle)
            let viaSQL = try c.fetch(FetchRequest("P", where: p, sortedBy: [SortKey("name")])).map { $0["name"] as String }
            let viaMemory = all.filter { p.evaluate($0) }.map { $0["name"] as String }.sorted()
            #expect(viaSQL == viaMemory, "\(needle)")
            return viaSQL
        }
        #expect(try found("godel") == ["GÖDEL", "Gödel"])
        #expect(try found("GÖD") == ["GÖDEL", "Gödel", "godot"])
        #expect(try found("strasse") == ["STRASSE", "Straße"])
        #expect(try found("café") == ["CAFE", "Café au lait"])
        #expect(try found("本") == ["日本語"])
        #expect(try found("istanbul") == ["istanbul", "İstanbul"])
        #expect(try found("zzz") == [])
        // What full-text search finds for the same text (the folding it indexes with).
        for needle in ["godel", "strasse", "café"] {
            let folded = TextFolding.fold(needle)
            #expect(try found(needle) == names.filter { TextFolding.fold($0).contains(folded) }.sorted())
        }
    }
}
