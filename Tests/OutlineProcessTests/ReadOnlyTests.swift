import Foundation
import TestSupport
import Testing

@testable import ObjectGraph
@testable import Outline

/// Reading never writes: `ls`, `export` and `check` leave every byte of the store as it was, work on a
/// read-only file in a read-only folder, and never wait for a writer. Writing commands leave the file alone
/// complete. Odd `--db` paths are refused at once instead of hanging.
@Suite(.serialized, .onAThreadOfItsOwn("processes")) struct ReadOnlyTests {
    let folder = TemporaryDirectory("burrow-outline")

    func burrow(_ args: String..., db: String) -> BurrowProcess.Result {
        BurrowProcess.run(args + ["--db", db])
    }

    func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    /// A store with a few items, written and closed by real commands.
    func store() -> String {
        let db = folder.path()
        #expect(burrow("add", "Groceries", "Work", db: db).status == 0)
        #expect(burrow("add", "Milk", "--under", "Groceries", db: db).status == 0)
        return db
    }

    @Test func readingCommandsChangeNoByte() throws {
        let db = store()
        // Each writing command checkpointed: the file alone holds everything, the log is empty.
        let copy = folder.path("copy.sqlite")
        try FileManager.default.copyItem(atPath: db, toPath: copy)
        #expect(burrow("ls", "--tree", db: copy).out == "[ ] Groceries (1)\n  [ ] Milk\n[ ] Work\n")
        let before = bytes(db)
        for args in [["ls"], ["ls", "--tree", "--json"], ["export", "--format", "json"], ["check"], ["ls", "Groceries"]] {
            let r = BurrowProcess.run(args + ["--db", db])
            #expect(r.status == 0, "\(args): \(r.err)")
            #expect(bytes(db) == before, "\(args) changed the file")
            #expect(LogFile.holdsNothing(besides: db), "\(args) wrote to the log")
        }
        // Nothing is created where there is no outline: a database named that is not there is an error.
        let none = folder.path("none.sqlite")
        #expect(burrow("ls", db: none).err == "burrow: there is no outline at \(none) (burrow add makes one)\n")
        #expect(burrow("export", "--format", "text", db: none).status == 1)
        #expect(!FileManager.default.fileExists(atPath: none))
    }

    /// A read-only file in a read-only folder (as another user when the tests run as root, who may write
    /// anywhere): reading works, writing says why it cannot; with the log the last command kept, its header
    /// cleared (SQLite cannot make the `-shm` it would need for a log there), and with no log.
    @Test(arguments: [true, false]) func aReadOnlyFileInAReadOnlyFolderCanBeRead(keptLog: Bool) throws {
        let db = store()
        let dir = (db as NSString).deletingLastPathComponent
        #expect(FileManager.default.fileExists(atPath: db + "-wal"), "the commands kept no log")
        #expect(LogFile.holdsNothing(besides: db))
        #expect(!FileManager.default.fileExists(atPath: db + "-shm"))
        if !keptLog { try FileManager.default.removeItem(atPath: db + "-wal") }
        let log = bytes(db + "-wal")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: db)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: dir)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir) }
        let asOther = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        // The other user may not see into the build folder (a clone under /root): run a copy from /tmp.
        let bin = TemporaryDirectory("burrow-outline")
        let binary = bin.url.appendingPathComponent("burrow").path
        // Written through a descriptor closed on exec: a process another test starts while the copy is open
        // (a tmux server lives on) would otherwise keep it open for writing, and running it fails "Text file busy".
        let image = try Data(contentsOf: URL(fileURLWithPath: BurrowProcess.path))
        let fd = open(binary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        try #require(fd >= 0, "cannot create \(binary)")
        let written = image.withUnsafeBytes { buf in
            var done = 0
            while done < buf.count {
                let n = write(fd, buf.baseAddress! + done, buf.count - done)
                if n <= 0 { break }
                done += n
            }
            return done
        }
        close(fd)
        try #require(written == image.count, "cannot write \(binary)")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin.url.path)
        func run(_ args: [String]) -> BurrowProcess.Result {
            guard !asOther.isEmpty else { return BurrowProcess.run(args + ["--db", db]) }
            // Linux refuses to run a file some process holds open for writing ("Text file busy"): the copy's
            // descriptor, closed on exec, is still in any child another test forked while it was open until that
            // child execs (seen in CI, 2026-12-03). Such a child execs within moments: try again, briefly.
            var result = BurrowProcess.run(tool: asOther[0], Array(asOther.dropFirst()) + [binary] + args + ["--db", db])
            var tries = 0
            while result.status == 126, result.err.contains("Text file busy"), tries < 20 {
                tries += 1
                usleep(50_000)
                result = BurrowProcess.run(tool: asOther[0], Array(asOther.dropFirst()) + [binary] + args + ["--db", db])
            }
            return result
        }
        let before = bytes(db)
        let ls = run(["ls", "--tree"])
        #expect(ls.status == 0, "\(ls.err)")
        #expect(ls.out == "[ ] Groceries (1)\n  [ ] Milk\n[ ] Work\n")
        #expect(run(["export", "--format", "text"]).out == "Groceries\n\tMilk\nWork\n")
        #expect(run(["check"]).status == 0)
        let add = run(["add", "x"])
        #expect(add.status == 1 && add.err.hasPrefix("burrow: "), "\(add)")
        #expect(bytes(db) == before)
        #expect(bytes(db + "-wal") == log)
        #expect(!FileManager.default.fileExists(atPath: db + "-shm"))
    }

    /// A writer in the middle of a transaction (another process, or the outliner saving) does not make a
    /// reader wait: it reads what was committed. The writer holds its transaction until `ls` has ended, so a
    /// reader that waited for it would end only at its busy timeout, with an error, and never list the items.
    @Test func readersDoNotWaitForAWriter() throws {
        let path = store()
        let writer = try Store(path: path, model: OutlineModel.model)
        try writer.sqlite.withWriteTransaction { db in
            try db.execute(sql: "UPDATE Item SET title = 'uncommitted' WHERE title = 'Work'")
            let ls = burrow("ls", db: path)
            #expect(ls.status == 0, "\(ls.err)")
            #expect(ls.out == "[ ] Groceries (1)\n[ ] Work\n")
        }
    }

    /// A store written by the model before counts were maintained is read as it is (nothing to migrate
    /// but its counts) and upgraded by the first command that writes.
    @Test func anOlderStoreIsReadAsItIsAndUpgradedByAWriter() throws {
        let db = folder.path()
        let v1 = try Model(version: 1) {
            Entity("Item", type: Item.self) {
                Attribute("title", .string, default: "")
                Attribute("note", .string, optional: true)
                Attribute("done", .bool, default: false)
                Attribute("order", .string, default: "a0")
                Attribute("childCount", .integer64, default: 0, min: 0)
                Attribute("rootMarker", .integer64, optional: true, unique: true)
                Relationship.toOne("parent", "Item", inverse: "children")
                Relationship.toMany("children", "Item", inverse: "parent", deleteRule: .cascade)
                CompoundIndex("parent", "order")
            }
        }
        do {
            let c = Context(store: try Store(path: db, model: v1))
            let root = try c.insert("Item")
            root["title"] = "Burrow"
            root["rootMarker"] = 1
            let a = try c.insert("Item")
            a["title"] = "A"
            a["childCount"] = 5  // stale, as old code could leave it
            a.setObject(root, for: "parent")
            root["childCount"] = 1
            try c.save()
            c.store.checkpoint()
        }
        let before = bytes(db)
        let ls = burrow("ls", db: db)
        #expect(ls.status == 0, "\(ls.err)")
        #expect(ls.out == "[ ] A (5)\n")  // read as stored: reading does not migrate
        #expect(bytes(db) == before)
        #expect(burrow("add", "B", db: db).status == 0)
        #expect(burrow("ls", db: db).out == "[ ] A\n[ ] B\n")
        #expect(burrow("check", db: db).status == 0)
    }

    /// A FIFO, a socket or a device as the store is refused at once (the old code waited forever on a FIFO).
    @Test func oddFilesAreRefusedAtOnce() throws {
        let fifo = folder.path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        for args in [["ls"], ["add", "x"], ["export"], ["check"], ["--help"]] where args != ["--help"] {
            let r = BurrowProcess.run(args + ["--db", fifo])
            #expect(r.status == 1, "\(args)")
            #expect(r.err.contains("it is a FIFO (named pipe), not a file"), "\(args): \(r.err)")
        }
        let device = BurrowProcess.run(["add", "x", "--db", "/dev/null"])
        #expect(device.status == 1 && device.err.contains("it is a device, not a file"), "\(device.err)")
    }

    /// A store whose ID allocator row is gone gets a new one above every ID (the old code trapped).
    @Test func aMissingIDAllocatorIsRepairedByTheNextWrite() throws {
        let db = store()
        let s = try Store(path: db, model: OutlineModel.model)
        try s.queue.write { db in try db.execute(sql: "DELETE FROM og_metadata WHERE key = 'next_id'") }
        #expect(burrow("check", db: db).out == "the ID allocator is missing\n")
        let add = burrow("add", "x", db: db)
        #expect(add.status == 0, "\(add.err)")
        #expect(burrow("check", db: db).status == 0)
        #expect(burrow("ls", db: db).out == "[ ] Groceries (1)\n[ ] Work\n[ ] x\n")
    }
}
