import Foundation
import GRDB
import GRDBSQLite

extension SQLiteStore {
    /// Reads an existing file without writing to it and decides whether it can be opened with `model`.
    /// Returns nil for a new (absent or empty) file.
    static func inspect(path: String, model: Model) throws(StoreError) -> StoredModel? {
        guard try fileHoldsData(path) else { return nil }
        return try inspectContents(path: path, model: model)
    }

    /// What can be told of the file at `path` from its name alone, before any connection opens it: throws
    /// for what is no store (a folder, a FIFO, a device, an unreadable file, a missing folder); false for a
    /// new store (no file, or an empty one), true for a file to read.
    static func fileHoldsData(_ path: String) throws(StoreError) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            let dir = (path as NSString).deletingLastPathComponent
            if !dir.isEmpty && !FileManager.default.fileExists(atPath: dir) {
                throw StoreError(.cannotOpen, "cannot create the store: the folder \(dir) does not exist", path: path)
            }
            return false
        }
        if isDirectory.boolValue { throw StoreError(.cannotOpen, "cannot open the store: it is a folder", path: path) }
        // Opening a FIFO waits for a writer forever, and a device or socket is no store: refuse at once.
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw StoreError(.cannotOpen, "cannot open the store: \(String(cString: strerror(errno)))", path: path)
        }
        if info.st_mode & S_IFMT != S_IFREG {
            let kind =
                switch info.st_mode & S_IFMT {
                case S_IFIFO: "a FIFO (named pipe)"
                case S_IFSOCK: "a socket"
                case S_IFCHR, S_IFBLK: "a device"
                default: "not a regular file"
                }
            throw StoreError(.cannotOpen, "cannot open the store: it is \(kind), not a file", path: path)
        }
        // Never opened here but through SQLite: SQLite's locks on the file belong to the process, and closing
        // any descriptor of it drops them all, those of a store already open on it in this process too (then
        // another process that closes takes itself for the last, checkpoints and clears the log under this
        // one's reads: "database disk image is malformed"). `FileLockTests` checks the locks are kept.
        if access(path, R_OK) != 0 {
            throw StoreError(.cannotOpen, "cannot open the store: \(String(cString: strerror(errno)))", path: path)
        }
        return info.st_size != 0
    }

    /// Reads the model record of the file at `path` (which holds data) without writing to it, and decides
    /// whether it can be opened with `model`; nil for an SQLite file with no tables yet.
    static func inspectContents(path: String, model: Model) throws(StoreError) -> StoredModel? {
        let stored: StoredModel?
        do {
            stored = try readStoredModelWithoutWriting(path: path, model: model)
        } catch {
            var e = error
            e.path = path
            throw e
        }
        guard let stored else { return nil }
        if stored.hash == model.versionHash { return stored }
        try refuseNewer(stored, model: model, path: path)
        do {
            _ = try SchemaMigration.plan(from: stored, to: model)
        } catch {
            var e = error
            e.path = path
            throw e
        }
        return stored
    }
}

extension SQLiteStore {
    /// Throws `.newerModel` when `stored` was written by a newer version of `model` than this one.
    static func refuseNewer(_ stored: StoredModel, model: Model, path: String?) throws(StoreError) {
        guard stored.version > model.version else { return }
        throw StoreError(
            .newerModel,
            "this store was written by a newer version of the model (\(stored.version), this program knows \(model.version)); "
                + "upgrade the program to open it", path: path)
    }

    /// Reads the model record through SQLite's C API. With no connection open and no log that holds frames
    /// (none, or one kept with its header cleared) nobody is writing the database, so it is opened
    /// `immutable`: no lock, no `-wal` or `-shm` file is created, not one byte changes.
    static func readStoredModelWithoutWriting(path: String, model: Model) throws(StoreError) -> StoredModel? {
        let locked = fileURI(path) + "?mode=ro"
        if LogFileReuse.logMayBeInUse(beside: path) { return try readStoredModel(uri: locked, model: model) }
        func version() -> (Int, Int, Int)? {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            return (Int(status.st_size), status.st_mtim.tv_sec, status.st_mtim.tv_nsec)
        }
        let before = version()
        do {
            return try readStoredModel(uri: fileURI(path) + "?mode=ro&immutable=1", model: model)
        } catch {
            // A writer that opened, wrote and checkpointed while the file was read as immutable leaves a torn
            // read (a race as old as the check; a cold review's stress test saw "malformed" once in 14 runs):
            // read again with SQLite's locks, only if a writer came (a damaged file is refused as it is, with
            // no `-wal` or `-shm` made beside it). Where that cannot be done, the first answer stands.
            if let before, let after = version(), before == after, !LogFileReuse.logMayBeInUse(beside: path) { throw error }
            do { return try readStoredModel(uri: locked, model: model) } catch _ { throw error }
        }
    }

    /// The model record of the store at `uri` (a `file:` URI with its query), read through SQLite's C API.
    private static func readStoredModel(uri: String, model: Model) throws(StoreError) -> StoredModel? {
        processSettings
        var db: OpaquePointer?
        defer { sqlite3_close_v2(db) }
        guard sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil) == SQLITE_OK, let db else {
            throw StoreError(.cannotOpen, "cannot open the store: \(db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory")")
        }
        // Another process may be creating or checkpointing the file right now (a script's `burrow add` while
        // the outliner starts): wait for its lock as the store's own connection does, rather than fail.
        sqlite3_busy_timeout(db, 5000)
        func query(_ sql: String) throws(StoreError) -> [[String?]] {
            var stmt: OpaquePointer?
            defer { sqlite3_finalize(stmt) }
            guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK else {
                let code = sqlite3_extended_errcode(db)
                let message = String(cString: sqlite3_errmsg(db))
                if code == SQLITE_NOTADB {
                    throw StoreError(
                        .notADatabase, "this file is not a store (it is not an SQLite file)", engine: .init(code: code, message: message))
                }
                throw StoreError(.cannotOpen, "cannot read the store: \(message)", engine: .init(code: code, message: message, statement: sql))
            }
            var rows: [[String?]] = []
            while true {
                let rc = sqlite3_step(stmt)
                if rc == SQLITE_DONE { break }
                guard rc == SQLITE_ROW else {
                    let message = String(cString: sqlite3_errmsg(db))
                    throw StoreError(.cannotOpen, "cannot read the store: \(message)", engine: .init(code: rc, message: message, statement: sql))
                }
                rows.append(
                    (0..<sqlite3_column_count(stmt)).map { i in
                        sqlite3_column_text(stmt, i).map { String(cString: $0) }
                    })
            }
            return rows
        }
        let tables = try query("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0[0] }
        guard tables.contains("og_metadata") else {
            if tables.isEmpty { return nil }
            throw StoreError(.notAStore, "this SQLite file was not made by ObjectGraph (no og_metadata table)")
        }
        var dict: [String: String] = [:]
        for row in try query("SELECT key, value FROM og_metadata WHERE key IN ('model', 'model_hash', 'model_version')") {
            if let k = row[0], let v = row[1] { dict[k] = v }
        }
        guard let json = dict["model"], let hash = dict["model_hash"], let version = dict["model_version"].flatMap({ Int($0) }),
            let snapshot = StoredModel.snapshot(json: json, hash: hash, model: model)
        else {
            throw StoreError(.notAStore, "the store's model record is damaged")
        }
        return StoredModel(snapshot: snapshot, hash: hash, version: version)
    }
}

extension SQLiteStore {
    /// `path` as an SQLite `file:` URI, to which a query (`?mode=ro`) can be added: every byte but a URL
    /// path's own characters percent-encoded (so `?`, `#`, `%`, spaces and non-ASCII names survive), and an
    /// absolute path behind an empty authority (so `//server/x` is not read as a host).
    static func fileURI(_ path: String) -> String {
        // By hand: Foundation's `addingPercentEncoding` bridges through NSString and CoreFoundation, a
        // twentieth of a quick command's instructions for one path.
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes = Array((path.hasPrefix("/") ? "file://" : "file:").utf8)
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                bytes.append(byte)
            case _ where "!$&'()*+,-./:=@_~".utf8.contains(byte):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
