import Foundation
import GRDB
import TestSupport
import Testing

@testable import ObjectGraph

@Suite struct StoreTests {
    static let v1 = try! Model(version: 1) {
        Entity("Note") {
            Attribute("text", .string, default: "")
        }
    }

    /// v1 plus only additive changes.
    static let v2 = try! Model(version: 2) {
        Entity("Note") {
            Attribute("text", .string, default: "", indexed: true)
            Attribute("pinned", .bool, default: false)
            Attribute("tag", .string, optional: true)
            Relationship.toOne("folder", "Folder", inverse: "notes")
        }
        Entity("Folder") {
            Attribute("name", .string, default: "Inbox")
            Relationship.toMany("notes", "Note", inverse: "folder")
        }
    }

    @Test func storeUsesWALForeignKeysAndRecordsTheModel() throws {
        let dir = TemporaryDirectory("objectgraph")
        let store = try Store(path: dir.path(), model: Self.v1)
        let (mode, keys, hash) = try store.queue.read { db in
            (
                try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA foreign_keys"),
                try String.fetchOne(db, sql: "SELECT value FROM og_metadata WHERE key = 'model_hash'")
            )
        }
        #expect(mode == "wal")
        #expect(keys == 1)
        #expect(hash == Self.v1.versionHash)
    }

    @Test func additiveChangesMigrateAndKeepData() throws {
        let dir = TemporaryDirectory("objectgraph")
        var id: ObjectID!
        do {
            let c = Context(store: try Store(path: dir.path(), model: Self.v1))
            let n = try c.insert("Note")
            n["text"] = "kept"
            id = n.objectID
            try c.save()
        }
        let c = Context(store: try Store(path: dir.path(), model: Self.v2))
        let n = try #require(try c.existingObject(for: id))
        #expect(n["text"] == .string("kept"))
        #expect(n["pinned"] == .bool(false))
        #expect(n["tag"] == .null)
        let folder = try c.insert("Folder")
        n.setObject(folder, for: "folder")
        try c.save()
        #expect(folder.count("notes") == 1)
        let indexes = try c.store.queue.read { db in try db.indexes(on: "Note").map(\.name).sorted() }
        #expect(indexes == ["og_ix_Note_folder", "og_ix_Note_text"])
        // Opening with v2 again is a plain open; the store remembers it was version 1 (for the program's own
        // steps on data), and a new store was never upgraded.
        #expect(try Store(path: dir.path(), model: Self.v2).upgradedVersions() == [1])
        #expect(try Store(inMemoryWith: Self.v2).upgradedVersions() == [])
    }

    /// A store opened to read without migrating: a column the newer model added reads as NULL in a fetch's
    /// condition and its order as it does in its values (a condition on it failed: "no such column").
    @Test func anOlderStoreReadAsItIsAnswersConditionsOnNewColumns() throws {
        let dir = TemporaryDirectory("objectgraph")
        do {
            let c = Context(store: try Store(path: dir.path(), model: Self.v1))
            for text in ["b", "a"] { try c.insert("Note")["text"] = .string(text) }
            try c.save()
        }
        // Columns added, no table: readable as it is.
        let columnsOnly = try Model(version: 2) {
            Entity("Note") {
                Attribute("text", .string, default: "")
                Attribute("pinned", .bool, default: false)
                Attribute("tag", .string, optional: true)
            }
        }
        let c = Context(store: try Store(readingAt: dir.path(), model: columnsOnly))
        #expect(try c.count(FetchRequest("Note", where: Property("tag").isNil)) == 2)
        #expect(try c.count(FetchRequest("Note", where: !Property("tag").isNil || Property("pinned") == true)) == 0)
        let sorted = try c.fetchValues(FetchRequest("Note", sortedBy: [SortKey("tag"), SortKey("text")]), keys: ["text"])
        #expect(sorted.map(\.values) == [[.string("a")], [.string("b")]])
    }

    /// A store opened to read an older file lists an entity the file has no table for as empty, through
    /// the background reader of a results controller too (it failed: "no such table"); once a writer has
    /// migrated the file, the next poll reads the real tables and columns, and every list again.
    @Test func anOlderStoreReadAsItIsListsANewEntityAndTakesInAMigration() throws {
        let dir = TemporaryDirectory("objectgraph")
        do {
            let c = Context(store: try Store(path: dir.path(), model: Self.v1))
            for text in ["b", "a"] { try c.insert("Note")["text"] = .string(text) }
            try c.save()
        }
        let reader = try Store(readingAt: dir.path(), model: Self.v2)
        let c = Context(store: reader)
        let folders = ResultsController(context: c, request: FetchRequest("Folder", sortedBy: [SortKey("name")]))
        // Each with a handler: a controller without one keeps its last fetch.
        folders.onChange = { _ in }
        try folders.performFetch()
        #expect(folders.count == 0)
        let pinned = ResultsController(context: c, request: FetchRequest("Note", where: Property("pinned") == true))
        pinned.onChange = { _ in }
        try pinned.performFetch()
        #expect(pinned.count == 0)
        // Rows read by ID before the migration: the SQL that read them selected NULL for `pinned`.
        let noteA = try #require(try c.fetch(FetchRequest("Note", where: Property("text") == "a")).first).objectID
        let other = Context(store: reader)
        #expect(try other.existingObject(for: noteA)?["pinned"] == .null)
        let all = ResultsController(context: c, request: FetchRequest("Note", sortedBy: [SortKey("text")]))
        all.onChange = { _ in }
        try all.performFetch()
        #expect(try reader.poll() == 0)

        do {
            let w = Context(store: try Store(path: dir.path(), model: Self.v2))
            let folder = try w.insert("Folder")
            folder["name"] = "Work"
            let a = try #require(try w.fetch(FetchRequest("Note", where: Property("text") == "a")).first)
            a["pinned"] = true
            a.setObject(folder, for: "folder")
            try w.save()
        }
        _ = try reader.poll()
        #expect(folders.count == 1)
        #expect(pinned.count == 1)
        #expect(try c.fetch(FetchRequest("Note", sortedBy: [SortKey("text")])).map { $0["pinned"] as Value } == [.bool(true), .bool(false)])
        #expect(try Context(store: reader).existingObject(for: noteA)?["pinned"] == .bool(true))
        #expect(try other.existingObject(for: noteA)?["pinned"] == .bool(true))
        #expect(all.count == 2)
        #expect(try c.fetch(FetchRequest("Folder")).first?["name"] == .string("Work"))
        #expect(reader.resynchronizations == 1)
    }

    /// A migration that fails half-way (a new unique index over values that repeat) rolls back whole: the
    /// file's bytes are as they were, and the old model still opens it with its data.
    @Test func aMigrationThatFailsLeavesTheFileAsItWas() throws {
        let dir = TemporaryDirectory("objectgraph")
        do {
            let c = Context(store: try Store(path: dir.path(), model: Self.v1))
            for _ in 0..<2 { try c.insert("Note")["text"] = "same" }
            try c.save()
            c.store.checkpoint()
        }
        let unique = try Model(version: 2) {
            Entity("Note") {
                Attribute("text", .string, default: "", unique: true)
                Attribute("pinned", .bool, default: false)
            }
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: dir.path()))
        let e = storeError { _ = try Store(path: dir.path(), model: unique) }
        #expect(e?.code == .uniqueConstraint || e?.message.contains("UNIQUE") == true, "\(String(describing: e))")
        #expect(e?.message.hasPrefix("cannot migrate the store") == true)
        let after = try Data(contentsOf: URL(fileURLWithPath: dir.path()))
        let changed = zip(before, after).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(after == before, "\(before.count) → \(after.count) bytes; changed at \(changed.prefix(20))")
        let c = Context(store: try Store(path: dir.path(), model: Self.v1))
        #expect(try c.count(FetchRequest("Note", where: Property("text") == "same")) == 2)
    }

    @Test func newerStoreIsRefusedAndUntouched() throws {
        let dir = TemporaryDirectory("objectgraph")
        do {
            let c = Context(store: try Store(path: dir.path(), model: Self.v2))
            _ = try c.insert("Folder")
            try c.save()
        }
        let before = fileState(dir.path())
        let e = storeError { _ = try Store(path: dir.path(), model: Self.v1) }
        #expect(e?.code == .newerModel)
        #expect(e?.message.contains("newer version of the model (2, this program knows 1)") == true)
        #expect(fileState(dir.path()) == before)
    }

    @Test(arguments: [
        (
            "type change", try! Model(version: 2) { Entity("Note") { Attribute("text", .integer64, default: 0) } },
            "attribute Note.text changed type from string to integer64"
        ),
        (
            "removed attribute", try! Model(version: 2) { Entity("Note") { Attribute("body", .string, optional: true) } },
            "attribute Note.text was removed"
        ),
        (
            "required without default",
            try! Model(version: 2) {
                Entity("Note") {
                    Attribute("text", .string, default: ""); Attribute("must", .string)
                }
            }, "new required attribute Note.must has no default for existing rows"
        ),
        ("removed entity", try! Model(version: 2) { Entity("Other") { Attribute("x", .string) } }, "entity Note was removed")
    ])
    func incompatibleModelIsRefusedAndUntouched(name: String, model: Model, reason: String) throws {
        let dir = TemporaryDirectory("objectgraph")
        do {
            let c = Context(store: try Store(path: dir.path(), model: Self.v1))
            _ = try c.insert("Note")
            try c.save()
        }
        let before = fileState(dir.path())
        let e = storeError { _ = try Store(path: dir.path(), model: model) }
        #expect(e?.code == .incompatibleModel, "\(name)")
        #expect(e?.message.contains(reason) == true, "\(name): \(e?.message ?? "")")
        #expect(fileState(dir.path()) == before, "\(name)")
    }

    @Test func otherFilesAreRefusedAndUntouched() throws {
        let dir = TemporaryDirectory("objectgraph")
        let text = dir.path("notes.txt")
        try Data("just some text\n".utf8).write(to: URL(fileURLWithPath: text))
        let e1 = storeError { _ = try Store(path: text, model: Self.v1) }
        #expect(e1?.code == .notADatabase)
        #expect(try Data(contentsOf: URL(fileURLWithPath: text)) == Data("just some text\n".utf8))

        // Another program's SQLite file, in rollback mode (inspected first) and in WAL mode (read first by the
        // connection that writes): refused before anything is written, byte for byte as it was, its table all
        // it holds.
        for mode in ["DELETE", "WAL"] {
            let foreign = dir.path("foreign-\(mode).sqlite")
            let q = try DatabaseQueue(path: foreign)
            try q.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = \(mode); CREATE TABLE t(x); INSERT INTO t VALUES (1)") }
            try q.close()
            let before = fileState(foreign)
            let e = storeError { _ = try Store(path: foreign, model: Self.v1) }
            #expect(e?.code == .notAStore, "\(mode): \(String(describing: e))")
            #expect(e?.path == foreign, "\(mode)")
            #expect(fileState(foreign) == before, "\(mode)")
            let tables = try DatabaseQueue(path: foreign).read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master") }
            #expect(tables == ["t"], "\(mode)")
        }

        // An SQLite file in WAL mode with no tables yet is a new store.
        let empty = dir.path("empty.sqlite")
        let q2 = try DatabaseQueue(path: empty)
        try q2.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        try q2.close()
        do {
            let c = Context(store: try Store(path: empty, model: Self.v1))
            try c.insert("Note")["text"] = "first"
            try c.save()
        }
        let reopened = Context(store: try Store(path: empty, model: Self.v1))
        #expect(try reopened.count(FetchRequest("Note")) == 1)

        let e3 = storeError { _ = try Store(path: dir.path("missing/dir/x.sqlite"), model: Self.v1) }
        #expect(e3?.code == .cannotOpen)
        #expect(!FileManager.default.fileExists(atPath: dir.path("missing")))
    }

    /// Files a program left mid-way, copied while it held them: a foreign file in WAL mode whose log still
    /// holds its frames, a newer store likewise, and a foreign file in rollback mode beside a hot journal. Each
    /// is refused, and neither the file nor its log or journal changes (closing did not copy the log into
    /// the file; nothing rolled the journal back).
    @Test func filesLeftMidWayAreRefusedAndUntouched() throws {
        let dir = TemporaryDirectory("objectgraph")
        func copyOf(_ source: String, as name: String, suffixes: [String]) throws -> String {
            let target = dir.path(name)
            for suffix in [""] + suffixes {
                try FileManager.default.copyItem(atPath: source + suffix, toPath: target + suffix)
            }
            return target
        }
        func expectRefusedAndUntouched(_ path: String, _ code: StoreError.Code?, sourceLocation: SourceLocation = #_sourceLocation) {
            let before = fileState(path)
            let e = storeError { _ = try Store(path: path, model: Self.v1) }
            if let code { #expect(e?.code == code, "\(String(describing: e))", sourceLocation: sourceLocation) }
            #expect(e != nil, "opened", sourceLocation: sourceLocation)
            let after = fileState(path)
            for suffix in ["", "-wal", "-journal"] {
                #expect(after[suffix] == before[suffix], "\(suffix.isEmpty ? "the file" : suffix) changed", sourceLocation: sourceLocation)
            }
        }

        // A foreign program's file in WAL mode, its rows still in the log (its connection open, no checkpoint).
        let foreign = dir.path("foreign.sqlite")
        let writer = try DatabaseQueue(path: foreign)
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; CREATE TABLE t(x); INSERT INTO t VALUES (1)")
        }
        let logged = try copyOf(foreign, as: "logged.sqlite", suffixes: ["-wal"])
        try writer.close()
        #expect((fileState(logged)["-wal"] ?? nil).map { $0.count > 32 } == true, "the copy's log holds frames")
        expectRefusedAndUntouched(logged, .notAStore)

        // A newer store whose last commit is still in its log.
        let newer = dir.path("newer.sqlite")
        let newerStore = try Store(path: newer, model: Self.v2)
        let c = Context(store: newerStore)
        _ = try c.insert("Folder")
        try c.save()
        let newerCopy = try copyOf(newer, as: "newer-copy.sqlite", suffixes: ["-wal"])
        expectRefusedAndUntouched(newerCopy, .newerModel)
        withExtendedLifetime(newerStore) {}

        // A foreign file in rollback mode whose writer died mid-change: its journal is hot.
        let rollback = dir.path("rollback.sqlite")
        let q = try DatabaseQueue(path: rollback)
        try q.write { db in try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES (1)") }
        try q.writeWithoutTransaction { db in
            // A cache of two pages spills: the journal is synced (its header made valid) and changed pages are
            // written to the file before the commit, which only the journal can undo.
            try db.execute(sql: "PRAGMA cache_size = 2")
            try db.execute(sql: "BEGIN IMMEDIATE")
            defer { try? db.execute(sql: "ROLLBACK") }
            try db.execute(
                sql: "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) INSERT INTO t SELECT randomblob(600) FROM n")
            _ = try copyOf(rollback, as: "hot.sqlite", suffixes: ["-journal"])
        }
        try q.close()
        expectRefusedAndUntouched(dir.path("hot.sqlite"), nil)
    }

    @Test func idsArePermanentAcrossSaveAndRelaunch() throws {
        let dir = TemporaryDirectory("objectgraph")
        var ids: [ObjectID] = []
        do {
            let c = Context(store: try Store(path: dir.path(), model: Self.v1))
            for i in 0..<5 {
                let n = try c.insert("Note")
                n["text"] = .string("n\(i)")
                ids.append(n.objectID)
            }
            let before = ids
            try c.save()
            #expect(ids == before)
            #expect(Set(ids).count == 5)
        }
        let c = Context(store: try Store(path: dir.path(), model: Self.v1))
        for (i, id) in ids.enumerated() {
            let n = try #require(try c.existingObject(for: id))
            #expect(n["text"] == .string("n\(i)"))
        }
        // IDs are never handed out twice, even after a delete.
        c.delete(try #require(try c.existingObject(for: ids[4])))
        try c.save()
        let fresh = try c.insert("Note")
        #expect(!ids.contains(fresh.objectID))
        #expect(fresh.objectID.rowID > ids.map(\.rowID).max()!)
    }

    @Test func twoContextsNeverShareIDs() throws {
        let store = try Store(inMemoryWith: Self.v1)
        let a = Context(store: store), b = Context(store: store)
        var seen = Set<Int64>()
        for _ in 0..<200 {
            #expect(seen.insert(try a.insert("Note").objectID.rowID).inserted)
            #expect(seen.insert(try b.insert("Note").objectID.rowID).inserted)
        }
    }

    static let badges = try! Model(version: 1) {
        Entity("Badge") {
            Attribute("code", .integer64, optional: true, unique: true)
        }
    }

    /// A unique optional attribute is indexed only where set: many rows without it, one row per value, and
    /// a lookup by value reads the index.
    @Test func uniqueOptionalAttributeHasAPartialIndex() throws {
        let store = try Store(inMemoryWith: Self.badges)
        let c = Context(store: store)
        for _ in 0..<3 { _ = try c.insert("Badge") }
        try c.insert("Badge")["code"] = Int64(7)
        try c.save()
        try c.insert("Badge")["code"] = Int64(7)
        #expect(throws: StoreError.self) { try c.save() }
        c.rollback()
        #expect(try c.fetch(FetchRequest("Badge", where: Property("code") == Int64(7))).count == 1)
        let (sql, plan) = try store.queue.read { db in
            (
                try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'og_uq_Badge_code'"),
                try Row.fetchAll(db, sql: #"EXPLAIN QUERY PLAN SELECT "id" FROM "Badge" WHERE "code" = ?"#, arguments: [7])
                    .map { $0["detail"] as String }
            )
        }
        #expect(sql == #"CREATE UNIQUE INDEX "og_uq_Badge_code" ON "Badge"("code") WHERE "code" IS NOT NULL"#)
        #expect(plan.joined().contains("og_uq_Badge_code"), "\(plan)")
    }

    /// A store written before partial indexes (format 1, a full unique index) is brought up to date when
    /// opened, keeping its rows.
    @Test func formatOneStoreGetsItsPartialIndexOnOpen() throws {
        let dir = TemporaryDirectory("objectgraph")
        do {
            let store = try Store(path: dir.path(), model: Self.badges)
            let c = Context(store: store)
            try c.insert("Badge")["code"] = Int64(1)
            try c.save()
            try store.queue.write { db in
                try db.execute(sql: #"DROP INDEX "og_uq_Badge_code""#)
                try db.execute(sql: #"CREATE UNIQUE INDEX "og_uq_Badge_code" ON "Badge"("code")"#)
                try db.execute(sql: "UPDATE og_metadata SET value = 1 WHERE key = 'format'")
            }
        }
        let store = try Store(path: dir.path(), model: Self.badges)
        let (sql, format) = try store.queue.read { db in
            (
                try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'og_uq_Badge_code'"),
                try Int.fetchOne(db, sql: "SELECT value FROM og_metadata WHERE key = 'format'")
            )
        }
        #expect(sql?.hasSuffix(#"WHERE "code" IS NOT NULL"#) == true)
        #expect(format == 2)
        #expect(try Context(store: store).fetch(FetchRequest("Badge", where: Property("code") == Int64(1))).count == 1)
    }
}

/// A store's path reaches SQLite as a `file:` URI (for the read-only and immutable opens): every name a file
/// can have must come back as the same file.
@Suite struct StorePathTests {
    /// The encoding is Foundation's `addingPercentEncoding` with a URL path's characters less `?`, `#`, `%`,
    /// done by hand; an absolute path has an empty authority before it.
    @Test func theURIEncodesAsFoundationDoes() {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let paths = [
            "store.sqlite", "/tmp/a b/c.sqlite", "/tmp/what?.sqlite", "/tmp/#1.sqlite", "/tmp/100%.sqlite", "/tmp/café/日本.sqlite",
            "/tmp/new\nline", "/tmp/tab\there", "/tmp/a+b=c;d@e~f!g$h&i'j(k)l*m,n", "//tmp/x.sqlite", "relative/a?b", "\u{7F}\u{1}"
        ]
        for path in paths {
            let foundation = (path.hasPrefix("/") ? "file://" : "file:") + path.addingPercentEncoding(withAllowedCharacters: allowed)!
            #expect(SQLiteStore.fileURI(path) == foundation, "\(path.debugDescription)")
        }
    }

    /// A store in folders named with a URI's own characters, non-ASCII and a line break, and one reached
    /// through a path that starts `//`: made, written, closed and opened again (the open reads its model
    /// through the URI first), then opened read-only.
    @Test func aStoreAtAnAwkwardPathOpensAgain() throws {
        let dir = TemporaryDirectory("objectgraph")
        for name in ["a b?c#d%20e", "café 日本", "new\nline", "x&y=z;w"] {
            let folder = dir.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for path in [folder.appendingPathComponent("s.sqlite").path, "/" + folder.appendingPathComponent("t.sqlite").path] {
                do {
                    let store = try Store(path: path, model: StoreTests.v1)
                    let context = Context(store: store)
                    let note = try context.insert("Note")
                    note["text"] = .string(name)
                    try context.save()
                }
                let store = try Store(path: path, model: StoreTests.v1)
                let texts = try store.queue.read { db in try String.fetchAll(db, sql: "SELECT text FROM Note") }
                #expect(texts == [name], "\(path.debugDescription)")
                let reader = try Store(readingAt: path, model: StoreTests.v1)
                #expect(try Context(store: reader).fetch(FetchRequest("Note")).count == 1, "\(path.debugDescription)")
            }
        }
    }
}
