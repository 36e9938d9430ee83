import Foundation
import GRDB
import TestSupport
import Testing

@testable import ObjectGraph

/// `Store.makeNew`: a new store written aside and given its name when complete, never over a file that
/// has the name, never leaving a half-made one under it.
@Suite struct MakeNewStoreTests {
    static let model = DeleteTreeTests.model

    /// What is in the folder, hidden files included, `-wal` and `-shm` aside.
    static func files(_ dir: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path("")).filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }.sorted()
    }

    static func names(at path: String) throws -> [String] {
        let c = Context(store: try Store(path: path, model: model))
        return try c.fetch(FetchRequest("Node")).map { (n: ManagedObject) -> String in n["name"] }.sorted()
    }

    @Test func theStoreHasItsNameOnlyWhenComplete() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("x.sqlite")
        let made = try Store.makeNew(at: path, model: Self.model) { store -> Int in
            let c = Context(store: store)
            for k in 0..<300 {
                let n = try c.insert("Node")
                n["name"] = .string("n\(k)")
            }
            try c.save(actionName: "Load")
            #expect(!FileManager.default.fileExists(atPath: path), "not under its name while written")
            #expect(try Self.files(dir) == [".x.sqlite.new"])
            return 300
        }
        #expect(made == 300)
        #expect(try Self.files(dir) == ["x.sqlite"])
        let store = try Store(path: path, model: Self.model)
        #expect(try store.check().isEmpty)
        #expect(try Context(store: store).count(FetchRequest("Node")) == 300)
        #expect(try Context(store: store).undoHistory.entries().map(\.name) == ["Load"], "its history came with it")
        let mode = try GRDB.DatabaseQueue(path: path).read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }

    @Test func aFailureLeavesNoFile() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("x.sqlite")
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            _ = try Store.makeNew(at: path, model: Self.model) { store in
                let c = Context(store: store)
                _ = try c.insert("Node")
                try c.save()
                throw Refused()
            }
        }
        #expect(try Self.files(dir).isEmpty)
    }

    /// A file, a folder or a link (to nowhere, too) at the path: nothing runs, nothing changes.
    @Test(arguments: ["file", "folder", "link"])
    func somethingAtThePathIsLeftAlone(kind: String) throws {
        let dir = TemporaryDirectory()
        let path = dir.path("x.sqlite")
        switch kind {
        case "file": try Data("not a store".utf8).write(to: URL(fileURLWithPath: path))
        case "folder": try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        default: try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: dir.path("nowhere"))
        }
        var ran = false
        let made = try Store.makeNew(at: path, model: Self.model) { _ -> Bool in
            ran = true
            return true
        }
        #expect(made == nil && !ran)
        #expect(try Self.files(dir) == ["x.sqlite"])
    }

    /// A hidden file a process left when it died (bytes, a journal beside it) is started again.
    @Test func aFileLeftByADeadProcessIsStartedAgain() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("x.sqlite")
        try Data(repeating: 0xAB, count: 70_000).write(to: URL(fileURLWithPath: dir.path(".x.sqlite.new")))
        try Data(repeating: 0xCD, count: 5_000).write(to: URL(fileURLWithPath: dir.path(".x.sqlite.new-journal")))
        let made = try Store.makeNew(at: path, model: Self.model) { store -> Bool in
            let c = Context(store: store)
            let n = try c.insert("Node")
            n["name"] = "fresh"
            try c.save()
            return true
        }
        #expect(made != nil)
        #expect(try Self.files(dir) == ["x.sqlite"])
        #expect(try Self.names(at: path) == ["fresh"])
    }

    /// Another process writing the hidden file (it holds the lock): nothing runs, its file is untouched.
    @Test func aHiddenFileBeingWrittenIsLeftToItsWriter() throws {
        let dir = TemporaryDirectory()
        let hidden = dir.path(".x.sqlite.new")
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: hidden))
        let fd = open(hidden, O_RDWR)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
        var ran = false
        let made = try Store.makeNew(at: dir.path("x.sqlite"), model: Self.model) { _ -> Bool in
            ran = true
            return true
        }
        #expect(made == nil && !ran)
        #expect(try String(contentsOfFile: hidden, encoding: .utf8) == "theirs")
    }

    /// A store made under the name while the new one was written (another process's `burrow add`) keeps
    /// it: the new one is dropped, and the caller told to do its work again.
    @Test func aStoreMadeUnderTheNameMeanwhileIsKept() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("x.sqlite")
        let made = try Store.makeNew(at: path, model: Self.model) { store -> Bool in
            let c = Context(store: store)
            let n = try c.insert("Node")
            n["name"] = "aside"
            try c.save()
            let other = Context(store: try Store(path: path, model: Self.model))
            let theirs = try other.insert("Node")
            theirs["name"] = "theirs"
            try other.save()
            return true
        }
        #expect(made == nil)
        #expect(try Self.files(dir) == ["x.sqlite"])
        #expect(try Self.names(at: path) == ["theirs"])
    }

    /// A store made the ordinary way where a killed `makeNew` left its hidden file removes it, unless a
    /// process is writing it now.
    @Test(arguments: [false, true])
    func anOrdinaryNewStoreRemovesWhatAKilledOneLeft(writtenNow: Bool) throws {
        let dir = TemporaryDirectory()
        let hidden = dir.path(".x.sqlite.new")
        try Data(repeating: 0xAB, count: 70_000).write(to: URL(fileURLWithPath: hidden))
        let fd = open(hidden, O_RDWR)
        defer { close(fd) }
        if writtenNow { #expect(flock(fd, LOCK_EX | LOCK_NB) == 0) }
        _ = try Store(path: dir.path("x.sqlite"), model: Self.model)
        #expect(try Self.files(dir) == (writtenNow ? [".x.sqlite.new", "x.sqlite"] : ["x.sqlite"]))
    }
}
