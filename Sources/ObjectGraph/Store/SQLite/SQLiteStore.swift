import Foundation
import GRDB
import GRDBSQLite

/// The SQLite store type: one file (or memory) holding the objects of one model, with WAL, foreign keys,
/// a busy timeout, the schema made from the model and the model's version hash recorded in it. The only
/// code that writes SQL or touches GRDB; ``Store`` reaches it through ``PersistentStore``.
final class SQLiteStore: PersistentStore {
    let model: Model
    /// The file, or nil for an in-memory store.
    let path: String?
    private let queue: DatabaseQueue
    /// Prepared statements by SQL, so hot queries are parsed once; at most `statementCacheLimit` of them,
    /// the least recently used going first (each holds SQLite memory until finalized).
    private var statements: [String: (statement: Statement, used: Int)] = [:]
    private var statementUses = 0
    /// The ``HotSQL`` statements, prepared on first use.
    private var hot = [Statement?](repeating: nil, count: HotSQL.allCases.count)
    /// The most statements kept prepared.
    static let statementCacheLimit = 256
    /// How many statements are prepared now, for tests.
    var cachedStatements: Int { statements.count }
    /// `SELECT <row> FROM <entity> WHERE id IN (?,...)` by entity, list size and columns.
    var rowsByIDSQL: [RowsByIDKey: String] = [:]
    /// Changes when SQL built before can no longer be used (a read-only store took in a migration): a
    /// result's cached batch SQL (`OrderedReadCache`) is built again.
    var readGeneration = 0
    /// `INSERT` of one or several rows, by entity, row count and the columns left out.
    var insertSQL: [InsertShape: String] = [:]
    /// By entity: the stored slots whose column has no default, so that an `INSERT` leaving them out
    /// stores NULL (see `writeRun`).
    var slotsNullWhenLeftOut: [Int: UInt64] = [:]
    /// The last `PRAGMA data_version` seen: it changes when another connection commits.
    var dataVersion: Int64 = -1
    /// What the last write transaction's commit left known (see ``CommitMemo``), and what the open one knows.
    var commitMemo = CommitMemo()
    var memoInTransaction = CommitMemo()
    /// Appends that took the newest history row from the memo, and those that read it, for tests.
    var historyMemoTally = (hits: 0, reads: 0)
    /// Matches of the full-text index up to which a fetch reads only the rows it found (see
    /// `fullTextNarrowing`; tests lower it), and how often reads were narrowed and found too many, for tests.
    var narrowingLimit = SQLiteStore.defaultNarrowingLimit
    var narrowingTally = (narrowed: 0, tooMany: 0)
    var savesSincePrune = 0
    /// See `Store.heartbeat`.
    var heartbeat: (() -> Void)?
    /// Whether the file has an undo history table (known after the first look).
    var historyTableExists: Bool?
    /// True once `og_history` is known to have the change log's columns (see `historyHoldsLog`).
    var historyLogColumns = false
    /// The open write transaction's change-log entry not yet written (see `openLog`), and the number of
    /// the one written last.
    var pendingLog: [UInt8]?
    var loggedSeq: Int64 = 0
    /// The log's counter as read or moved on inside the open write transaction (nil until then): no other
    /// connection can move it before the transaction ends.
    var counterInTransaction: Int64?
    /// The search indexes held in memory, by entity index (see ``TextIndexCache``), and how many searches
    /// read each whole: the first reads the file, a second keeps it (a command that searches once keeps
    /// nothing).
    var textIndexCaches: [Int: TextIndexCache] = [:]
    var wholeIndexScans: [Int: Int] = [:]
    /// What keeping them up to date took, for tests: whole reads, patches, ranges read by patches, and
    /// ranges widened past a held chunk's start the file no longer has.
    var heldIndexTally = (wholeReads: 0, patches: 0, ranges: 0, widened: 0)
    /// Held chunks from this many on are scanned in two halves at once (lowered by tests).
    var heldIndexParallelChunks = TextIndexCache.parallelChunks
    /// The most index bytes held (lowered by tests), and, by entity, the log entry at which the index was
    /// found bigger: it is not read whole again until the log moves on.
    var heldIndexLimit = TextIndexCache.limit
    var heldIndexTooBigAt: [Int: Int64] = [:]
    /// A read-only connection for background scans (file stores only), opened on first use.
    private var backgroundReaderStorage: DatabaseQueue?
    /// Checkpoints after big commits, off the committing thread (writable file stores only).
    private(set) var checkpointer: BackgroundCheckpointer?
    /// True after ``close()``: the connections are closed and nothing may use this store.
    private(set) var isClosed = false
    /// True for a new store written aside (`Store.makeNew`): no write-ahead log, no second connection.
    let isAside: Bool

    /// The connection background scans read through; nil for an in-memory store.
    func backgroundReader() -> DatabaseQueue? {
        precondition(!isClosed, "the store was closed")
        if let r = backgroundReaderStorage { return r }
        guard let path, !isAside else { return nil }
        // Without a second connection, scans read in place (the caller's fallback): slower, never wrong.
        backgroundReaderStorage = try? DatabaseQueue(path: path, configuration: SQLiteStore.configuration(readonly: true))
        // It reads an older store as this store does: its missing tables as empty ones.
        if let reader = backgroundReaderStorage, (try? addAbsentTables(to: reader)) == nil { backgroundReaderStorage = nil }
        return backgroundReaderStorage
    }

    /// The connection itself, for tests that inspect or damage a file the way another program would.
    var connectionForTests: DatabaseQueue { queue }

    /// Opens the store at `path`, creating or migrating it (see ``Store/init(path:model:)``). `aside`: a new
    /// file no other connection opens, written with its rollback journal in memory (see `Store.makeNew`).
    init(path: String, model: Model, aside: Bool = false) throws(StoreError) {
        self.model = model
        self.path = path
        isReadOnly = false
        isAside = aside
        let holdsData = try SQLiteStore.fileHoldsData(path)
        // A file in WAL mode already is read first by the connection that writes, whose settings then write
        // nothing, and `prepare` refuses what `inspectContents` would have refused before any write of its
        // own: a second connection that read the model record first (and the schema again) was a tenth of a
        // `burrow add`'s instructions. Any other file (a new store, one in another journal mode, one that
        // cannot be read as a store) is inspected first as before, so nothing is converted to WAL unchecked.
        // Only with no log in use and no rollback journal beside it: closing a connection that read a log of
        // frames another program left would copy them into the file, and reading a file whose writer died mid-
        // change rolls that change back, writes the inspection (read-only) does not make before deciding. A
        // store left by `burrow` has a cleared log and no index (`LogFileReuse`); one open elsewhere is
        // inspected first.
        if holdsData, !aside, access(path + "-journal", F_OK) != 0, !LogFileReuse.logMayBeInUse(beside: path),
            let queue = try? DatabaseQueue(path: path, configuration: SQLiteStore.configuration(onlyInLog: true))
        {
            self.queue = queue
            try prepare(existing: nil, inspected: false)
        } else {
            let existing = holdsData ? try SQLiteStore.inspectContents(path: path, model: model) : nil
            do {
                queue = try DatabaseQueue(path: path, configuration: SQLiteStore.configuration(aside: aside))
            } catch {
                throw StoreError.wrap(error, "cannot open the store", path: path)
            }
            try prepare(existing: existing, inspected: true)
        }
        try startDataVersion()
        guard !aside else { return }
        // What a killed `makeNew` left beside the path goes now (one `lstat` when there is none), or it would
        // stay for good.
        AsideFile.removeLeftOver(for: path)
        let checkpointer = BackgroundCheckpointer(path: path)
        queue.writeWithoutTransaction { db in checkpointer.install(on: db) }
        self.checkpointer = checkpointer
    }

    /// Puts the store at `path` (written aside, `Store.makeNew`) in WAL like every store on disk, before a
    /// reader comes to it. Best effort: it is a complete store either way, and any process that opens it to
    /// write asks for WAL again.
    static func useLog(at path: String) {
        if let queue = try? DatabaseQueue(path: path, configuration: configuration()) { try? queue.close() }
    }

    /// Opens an existing store for reading only (see ``Store/init(readingAt:model:)``).
    init(readingAt path: String, model: Model) throws(StoreError) {
        self.model = model
        self.path = path
        isReadOnly = true
        isAside = false
        guard let existing = try SQLiteStore.inspect(path: path, model: model) else {
            throw StoreError(.cannotOpen, Store.noStoreYet, path: path)
        }
        absentSlots = SQLiteStore.absentSlots(of: existing, in: model)
        queue = try SQLiteStore.openReadOnly(path)
        absentEntities = model.snapshot.entities.filter { existing.snapshot.entity($0.name) == nil }.map(\.name)
        do {
            try addAbsentTables(to: queue)
        } catch {
            throw StoreError.wrap(error, "cannot read the store as this version's", path: path)
        }
        try startDataVersion()
    }

    /// An entity the older store has no table for reads as empty: a table of that name in the connection's
    /// own temporary database, which SQLite finds first and which writes no byte of the file.
    private func addAbsentTables(to queue: DatabaseQueue) throws {
        guard !absentEntities.isEmpty else { return }
        let snapshot = model.snapshot
        try queue.inDatabase { db in
            for name in absentEntities {
                guard let e = snapshot.entity(name) else { continue }
                try db.execute(sql: Schema.createTable(e, in: snapshot).replacingOccurrences(of: "CREATE TABLE ", with: "CREATE TEMP TABLE "))
            }
        }
    }

    /// Read-only on an older store: when a writer has migrated the file to this model since, its real tables
    /// and columns are read from now on (the empty stand-ins go).
    func tookInMigrationElsewhere() throws(StoreError) -> Bool {
        guard isReadOnly, !absentEntities.isEmpty || !absentSlots.isEmpty else { return false }
        do {
            let migrated = try queue.inDatabase { db in try SQLiteStore.readStoredModel(db, model: model)?.hash == model.versionHash }
            guard migrated else { return false }
            try queue.inDatabase { db in
                for name in absentEntities { try db.execute(sql: "DROP TABLE IF EXISTS temp.\(Schema.quote(name))") }
            }
        } catch {
            throw StoreError.wrap(error, "cannot read the migrated store", path: path)
        }
        absentEntities = []
        absentSlots = [:]
        backgroundReaderStorage = nil
        // SQL built while columns were missing selected NULL for them: none of it is used again.
        rowsByIDSQL = [:]
        statements = [:]
        hot = [Statement?](repeating: nil, count: HotSQL.allCases.count)
        readGeneration += 1
        return true
    }

    /// By entity, the stored slots of the model that a store written by an older model has no column for
    /// (read only: a store opened for writing is migrated first, and has them all). Reads select NULL for
    /// them, so an older store reads as the model's with those values missing.
    private(set) var absentSlots: [Int: Set<Int>] = [:]
    /// The entities such a store has no table for (see `addAbsentTables`).
    private var absentEntities: [String] = []

    private static func absentSlots(of stored: StoredModel, in model: Model) -> [Int: Set<Int>] {
        var out: [Int: Set<Int>] = [:]
        for e in model.entities {
            guard let old = stored.snapshot.entity(e.name) else { continue }
            let names = Set(old.storedAttributes.map(\.name)).union(old.foreignKeys)
            let absent = Set(e.storedSlots.filter { !names.contains(e.properties[$0].name) })
            if !absent.isEmpty { out[e.index] = absent }
        }
        return out
    }

    /// `"id", "col", …` for a read of `layout`, with NULL for a column an older store lacks.
    func columns(_ layout: RowLayout, _ entity: EntityDescription) -> String {
        guard let absent = absentSlots[entity.index] else { return Schema.columns(layout, entity) }
        return (["\"id\""] + layout.slots.map { absent.contains($0) ? "NULL" : Schema.quote(entity.properties[$0].name) })
            .joined(separator: ", ")
    }

    /// The column of `slot` in a select list: NULL where an older store lacks it.
    func column(_ slot: Int, _ entity: EntityDescription) -> String {
        absentSlots[entity.index]?.contains(slot) == true ? "NULL" : Schema.quote(entity.properties[slot].name)
    }

    /// A read-only connection: SQLite's usual locks (so a writer's commits and checkpoints are seen
    /// safely), which need the WAL's `-shm` file; where that cannot be made (a read-only folder), nobody
    /// can be writing either, and the file is read as immutable.
    private static func openReadOnly(_ path: String) throws(StoreError) -> DatabaseQueue {
        let uri = fileURI(path)
        var firstError: (any Error)?
        for query in ["?mode=ro", "?mode=ro&immutable=1"] {
            do {
                let queue = try DatabaseQueue(path: uri + query, configuration: configuration(readonly: true))
                _ = try queue.inDatabase { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
                return queue
            } catch {
                firstError = firstError ?? error
                // A connection open, or a log with a header: someone may be writing, and the file alone may be
                // behind. A log kept with its header cleared (`LogFileReuse`) and no connection is no log.
                if LogFileReuse.logMayBeInUse(beside: path) { break }
            }
        }
        throw StoreError.wrap(firstError!, "cannot open the store for reading", path: path)
    }

    /// True for a store opened with ``init(readingAt:model:)``.
    let isReadOnly: Bool

    /// Moves every committed change from the write-ahead log into the database file, so the file alone is
    /// a complete copy (what a command does before it exits and the outliner when it quits). Best effort
    /// while other connections read: it never waits for them. Nothing to do for a read-only store.
    func checkpoint() {
        guard !isReadOnly, !isClosed, path != nil, transaction == nil else { return }
        checkpointer?.finish()
        // Best effort: a checkpoint not done now is done by a later one (or SQLite's own). Passive: it copies
        // what no reader still needs and never waits (a truncating one waited for readers holding the write
        // lock, so while an export read, every other writer waited behind it and gave up). It does not
        // truncate the log either: the close of the last connection to the file removes it, or in the
        // `burrow` program clears it (`LogFileReuse`; this store closes its reader before its writer), and
        // truncating it took a quick command 2–3 ms (`ftruncate` of the log after `fdatasync`); a log left by
        // a big change is cut to `logSizeLimit` when it next starts again.
        _ = try? queue.writeWithoutTransaction { db in try db.checkpoint(.passive) }
    }

    /// What a log that has been copied into the file is cut to when it starts again (SQLite's
    /// `journal_size_limit`): a big change's log does not keep its size while the store stays open.
    static let logSizeLimit = 4 << 20

    /// A store that lives in memory only, for tests and scratch work.
    init(inMemoryWith model: Model) throws(StoreError) {
        self.model = model
        self.path = nil
        isReadOnly = false
        isAside = false
        do {
            queue = try DatabaseQueue(configuration: SQLiteStore.configuration())
        } catch {
            throw StoreError.wrap(error, "cannot create an in-memory store")
        }
        try prepare(existing: nil, inspected: true)
        try startDataVersion()
    }

    /// Commits made before this store was opened are already in what it reads.
    private func startDataVersion() throws(StoreError) {
        do {
            dataVersion = try read { db in try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
        } catch {
            throw StoreError.wrap(error, "cannot read the change log", path: path)
        }
    }

    /// Asks for WAL mode. A file still in its first journal mode (new, made a moment ago by another
    /// connection) changes only under an exclusive lock, and SQLite answers a change that meets another
    /// connection's lock with `SQLITE_BUSY` at once, without its busy handler: several processes opening a new
    /// file at the same moment failed to open it ("database is locked", `CrossConnectionTests`). Asked again
    /// for up to the busy timeout's 5 s; once the file is in WAL the answer costs no lock.
    private static func journalModeWAL(_ db: Database) throws -> String? {
        let deadline = ContinuousClock.now + .seconds(5)
        var pause = 1
        while true {
            do {
                return try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && ContinuousClock.now < deadline {
                usleep(useconds_t(pause * 1000))
                pause = min(pause * 2, 50)
            }
        }
    }

    /// The connection's settings. `onlyInLog`: the connection fails (before any setting) unless the file is
    /// in WAL mode already, so that asking for WAL writes nothing.
    static func configuration(readonly: Bool = false, aside: Bool = false, onlyInLog: Bool = false) -> Configuration {
        processSettings
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(5)
        config.readonly = readonly
        // GRDB sets an authorizer on each connection that SQLite calls for every table and column a statement
        // names while it is compiled, to learn what each statement reads and writes for GRDB's observation
        // (`ValueObservation`, transaction observers) and its schema cache, none of which the store uses: it
        // reads the schema from SQLite itself (`externalTableExists`) and learns of changes by its own log.
        // The callback built a `String` and a set union per column: 5.6 % of a `burrow add`'s instructions,
        // 15 % of the sync simulation's time, since every new connection compiles its statements again
        // (DECISIONS, 2026-12-02). Removed once, first, before any statement of ours is compiled.
        config.prepareDatabase { db in sqlite3_set_authorizer(db.sqliteConnection, nil, nil) }
        config.prepareDatabase { db in try FoldedContains.register(db) }
        config.label = "ObjectGraph"
        if !readonly {
            // WAL set here rather than by GRDB's `journalMode = .wal`, which also commits a throwaway table
            // whenever the log file is missing or empty (for its pools): every open would write, even one
            // whose migration then fails. Asking for WAL when the file is in WAL already writes nothing.
            config.prepareDatabase { db in
                // The query form reads the file's header and writes nothing; a file that is no database fails.
                if onlyInLog, try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
                    throw StoreError(.cannotOpen, "not in WAL mode yet")
                }
                // A new store's pages are 16 KiB: a million-item import took 3.06 s against 3.46 s with 4 KiB
                // pages (fewer pages to split, log frames and write calls). Only a file with no pages yet takes
                // it; an existing store keeps its size (DECISIONS, 2026-12-04).
                try db.execute(sql: "PRAGMA page_size = 16384")
                // A file written aside has no reader but its writer until it is complete: no log to write and
                // copy again, its journal (the few pages that existed before a transaction) in memory. It takes
                // WAL once it has its name, before anything else opens it.
                let mode = aside ? try String.fetchOne(db, sql: "PRAGMA journal_mode = MEMORY") : try journalModeWAL(db)
                guard mode == "wal" || mode == "memory" else {
                    throw StoreError(.cannotOpen, "cannot use a write-ahead log here (journal mode \(mode ?? "unknown"))")
                }
                // NORMAL in WAL mode survives a killed process; only a power cut can lose the last commits.
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                // A statement that inserts several rows keeps what it changes in a statement journal (to undo
                // itself alone), and SQLite writes that journal to a temporary file once it passes 64 KiB,
                // which a long transaction then writes through for every statement: 1.2 GB for an import of a
                // million items. Kept in memory, each statement's journal is freed at its end.
                try db.execute(sql: "PRAGMA temp_store = MEMORY")
                // Debian's SQLite zeroes every freed page (SECURE_DELETE), so freeing a large undo step wrote
                // all its pages again: 86 MB and 0.3 s on the action after a million-item delete. FAST zeroes
                // deleted content only where that costs no extra write (within pages written anyway).
                try db.execute(sql: "PRAGMA secure_delete = FAST")
                try db.execute(sql: "PRAGMA journal_size_limit = \(SQLiteStore.logSizeLimit)")
            }
        }
        return config
    }

    /// Creates the schema of a new store, or migrates an existing one, in one transaction, refusing (before
    /// anything is written) a file that is no store or that a newer model wrote. `inspected`: whether
    /// `inspectContents` read the file first (only for the wording of an error).
    private func prepare(existing: StoredModel?, inspected: Bool) throws(StoreError) {
        let model = self.model
        let path = self.path
        do {
            try queue.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    let current = try SQLiteStore.readStoredModel(db, model: model)
                    // Checked again here, whether or not `inspectContents` read the file first: another program may
                    // have upgraded it, or made it, since.
                    if let current {
                        if current.hash != model.versionHash { try SQLiteStore.refuseNewer(current, model: model, path: path) }
                    } else if try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") != 0 {
                        throw StoreError(.notAStore, "this SQLite file was not made by ObjectGraph (no og_metadata table)", path: path)
                    }
                    if current != nil {
                        try db.execute(sql: Schema.changeLogTable)
                        for sql in Schema.historyTable { try db.execute(sql: sql) }
                        if try !historyHoldsLog(db) {
                            try SQLiteStore.addHistoryLogColumns(db)
                            historyLogColumns = true
                        }
                    }
                    if let current {
                        // The hash digests names, not their order: a model that only reordered what it declares
                        // has the hash it had and other slot numbers, which steps already written must follow.
                        let layout = try SQLiteStore.readLayout(db, for: current.hash, expecting: SlotLayout(model))
                        if current.hash != model.versionHash || (layout != nil && layout != SlotLayout(model)) {
                            // Re-check inside the write lock: another process may have migrated meanwhile.
                            let plan = try SchemaMigration.plan(from: current, to: model)
                            for sql in plan.statements { try db.execute(sql: sql) }
                            // Kept for the program's own steps on data the new version reads otherwise (see
                            // `Store.upgradedVersions()`), in the same commit as the schema's.
                            if current.version < model.version {
                                try db.execute(
                                    sql: "INSERT OR IGNORE INTO og_metadata(key, value) VALUES (?, ?)",
                                    arguments: [SQLiteStore.upgradedPrefix + String(current.version), model.version])
                            }
                            // What was done offline before the upgrade is still to be sent, in this model's numbers.
                            try SQLiteStore.translateOutbox(
                                db, from: layout ?? SlotLayout(inferredFrom: current.snapshot, by: model), hash: current.hash, to: model)
                            // Steps hold rows in the old model's slot order: they cannot be replayed on this one.
                            try db.execute(sql: "DELETE FROM og_history")
                            try SQLiteStore.writeModel(db, model)
                        } else if layout == nil {
                            // A store from before layouts were kept: its steps are in this model's numbers.
                            try SQLiteStore.writeModel(db, model)
                        }
                        try SQLiteStore.upgradeFormat(db, model)
                    } else {
                        try db.execute(sql: Schema.metadataTable)
                        for e in model.snapshot.entities {
                            try db.execute(sql: Schema.createTable(e, in: model.snapshot))
                            for sql in Schema.indexes(e).values.sorted() { try db.execute(sql: sql) }
                        }
                        try db.execute(sql: Schema.changeLogTable)
                        for sql in Schema.historyTable { try db.execute(sql: sql) }
                        try db.execute(sql: "INSERT INTO og_metadata(key, value) VALUES ('format', \(SQLiteStore.format)), ('next_id', 1)")
                        try SQLiteStore.writeModel(db, model)
                    }
                    try SQLiteStore.buildFullText(db, model)
                    return .commit
                }
            }
        } catch var error as StoreError {
            if error.path == nil { error.path = path }
            throw error
        } catch {
            throw StoreError.wrap(error, existing == nil && inspected ? "cannot create the store" : "cannot migrate the store", path: path)
        }
    }

    /// The layout ObjectGraph writes, beside the model's own version. 2: unique optional attributes have
    /// partial indexes (`WHERE x IS NOT NULL`).
    static let format = 2

    /// Brings a store written by an earlier ObjectGraph to the current layout: indexes whose definition
    /// changed are made again, in the open's transaction. Earlier code reads the result as before (the
    /// index names are the same).
    static func upgradeFormat(_ db: Database, _ model: Model) throws {
        let stored = try Int.fetchOne(db, sql: "SELECT value FROM og_metadata WHERE key = 'format'") ?? 1
        guard stored < format else { return }
        for e in model.snapshot.entities {
            for (name, sql) in Schema.indexes(e).sorted(by: { $0.key < $1.key }) {
                let existing = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?", arguments: [name])
                guard existing != sql else { continue }
                try db.execute(sql: "DROP INDEX IF EXISTS \(Schema.quote(name))")
                try db.execute(sql: sql)
            }
        }
        try db.execute(sql: "INSERT OR REPLACE INTO og_metadata(key, value) VALUES ('format', ?)", arguments: [format])
    }

    /// Runs `body` on the connection: inside the open write transaction when there is one (so reads made
    /// during a unit of work see what it will commit on), else without a transaction (each statement is
    /// atomic).
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        // A closed connection's handle is null, which SQLite's C API does not check for: stop here instead.
        precondition(!isClosed, "the store was closed")
        if let db = transaction ?? snapshotDB { return try body(db) }
        return try queue.inDatabase(body)
    }

    /// The connection while a read transaction is open on it (see `snapshot`).
    private var snapshotDB: Database?

    /// True inside a write transaction or a snapshot: commits elsewhere were taken in when it began, and
    /// none can be seen until it ends.
    var isInSnapshot: Bool { transaction != nil || snapshotDB != nil }

    /// Runs `body` with every read on one snapshot of the store (a read transaction). Inside a write
    /// transaction, or an open snapshot, `body` just runs.
    func snapshot<T>(_ body: () throws -> T) throws -> T {
        precondition(!isClosed, "the store was closed")
        if isInSnapshot { return try body() }
        var result: T?
        try queue.inDatabase { db in
            try db.inTransaction(.deferred) {
                snapshotDB = db
                defer { snapshotDB = nil }
                result = try body()
                return .commit
            }
        }
        return result!
    }

    /// The connection while a write transaction is open on it (see `writeTransaction`).
    private(set) var transaction: Database?
    /// True once SQLite ended the open write transaction on a failed write (see `noteIfTransactionEnded`):
    /// its statements fail from then on, and so does its commit.
    var transactionEnded = false
    /// The connection's count of changed rows when the open write transaction began: while it is the same,
    /// the transaction has written nothing (see `rowsAside`).
    private(set) var changesAtTransactionStart = 0

    /// True while a write transaction is open: a unit of work is between its first read and its commit.
    var isInTransaction: Bool { transaction != nil }

    /// Runs `body` in one write transaction, begun with `BEGIN IMMEDIATE`: from its first statement no
    /// other connection can commit until this one does, so whatever `body` reads stays true until the
    /// commit. Throws what `body` throws, after rolling back (SQLite's own failures as ``StoreError``).
    /// Transactions do not nest.
    func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        precondition(!isClosed, "the store was closed")
        do {
            return try withWriteTransaction { _ in try body() }
        } catch let e as DatabaseError {
            throw StoreError.wrap(e, "cannot save", path: path)
        }
    }

    /// ``writeTransaction(_:)`` with the connection, for the store's own statements.
    func withWriteTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        precondition(transaction == nil, "write transactions do not nest")
        precondition(snapshotDB == nil, "nothing may save while changes are being delivered (from a results controller's batch)")
        var result: T?
        try queue.writeWithoutTransaction { db in
            do {
                // Before the snapshot: a checkpoint ending between the two is then counted as ending inside
                // (one inline checkpoint too many at worst), never missed.
                checkpointer?.writeBegins()
                try db.inTransaction(.immediate) {
                    transaction = db
                    memoInTransaction = commitMemo.ifCurrent(db)
                    changesAtTransactionStart = db.totalChangesCount
                    (pendingLog, loggedSeq, counterInTransaction) = (nil, 0, nil)
                    transactionEnded = false
                    defer { (transaction, pendingLog, counterInTransaction, transactionEnded) = (nil, nil, nil, false) }
                    result = try body(db)
                    if transactionEnded { throw StoreError(.storage, "cannot save: a write failed and SQLite ended the transaction", path: path) }
                    try flushLog(db)
                    return .commit
                }
                commitMemo = memoInTransaction.committed(db)
            } catch {
                commitMemo = CommitMemo()
                throw error
            }
        }
        return result!
    }

    /// Fails a statement of a write transaction SQLite has ended (see `transactionEnded`).
    private func refuseIfTransactionEnded(_ db: Database) throws {
        if transactionEnded && db === transaction {
            throw StoreError(.storage, "cannot save: an earlier write failed and SQLite ended the transaction", path: path)
        }
    }

    /// The prepared statement for `sql`, reset and ready to bind.
    func statement(_ db: Database, _ which: HotSQL) throws -> RawStatement {
        try refuseIfTransactionEnded(db)
        if let s = hot[which.rawValue] { return RawStatement(s) }
        let s = try db.makeStatement(sql: which.sql)
        hot[which.rawValue] = s
        return RawStatement(s)
    }

    func statement(_ db: Database, _ sql: String) throws -> RawStatement {
        try refuseIfTransactionEnded(db)
        statementUses += 1
        if let i = statements.index(forKey: sql) {
            statements.values[i].used = statementUses
            return RawStatement(statements.values[i].statement)
        }
        let s = try db.makeStatement(sql: sql)
        if statements.count >= SQLiteStore.statementCacheLimit {
            // Rare (the SQL a store makes comes in few shapes): evict the oldest quarter in one pass.
            let old = statements.sorted { $0.value.used < $1.value.used }.prefix(SQLiteStore.statementCacheLimit / 4)
            for (key, _) in old { statements[key] = nil }
        }
        statements[sql] = (s, statementUses)
        return RawStatement(s)
    }

    deinit {
        guard !isClosed else { return }
        // Statements first: they must be finalized before the connection closes.
        statements.removeAll()
        hot.removeAll()
        // The commit hook points at the checkpointer: gone with it, before either is released.
        if checkpointer != nil { queue.writeWithoutTransaction { db in BackgroundCheckpointer.uninstall(from: db) } }
        checkpointer?.finish()
        // The reader closes before the writing connection: SQLite removes (or `LogFileReuse` clears) the log
        // when the last connection to close can write, and a read-only one closing last left the whole log
        // beside the file.
        backgroundReaderStorage = nil
    }

    /// Closes the connections now (see `Store.close()`), in the deinit's order, keeping the objects: releasing
    /// a GRDB queue disposes its dispatch queue, whose queue-specific value libdispatch destroys on a worker
    /// thread it starts for that, which a process about to exit need not pay for.
    func close() throws(StoreError) {
        guard !isClosed else { return }
        statements.removeAll()
        hot.removeAll()
        // What the objects kept after this would hold for nothing: a search index held in memory.
        textIndexCaches.removeAll()
        if checkpointer != nil { queue.writeWithoutTransaction { db in BackgroundCheckpointer.uninstall(from: db) } }
        checkpointer?.finish()
        // Closed from here on, even when a close below fails: nothing may use a half-closed store, and a
        // connection SQLite would not close yet is closed by GRDB's release (`sqlite3_close_v2`).
        isClosed = true
        do {
            try backgroundReaderStorage?.close()
            try queue.close()
        } catch {
            throw StoreError.wrap(error, "cannot close the store", path: path)
        }
    }

    /// Reserves `count` fresh row IDs, never handed out before by any context or process. Inside a write
    /// transaction the reservation is part of it (and undone with it).
    func reserveIDs(_ count: Int) throws(StoreError) -> Range<Int64> {
        func reserve(_ db: Database) throws -> Int64 {
            // The bound keeps SQLite from going past Int64.max (where it would turn the sum into a REAL).
            let sql = "UPDATE og_metadata SET value = value + ?1 WHERE key = 'next_id' AND value <= \(Int64.max) - ?1 RETURNING value"
            if let end = try Int64.fetchOne(db, sql: sql, arguments: [count]) { return end }
            if try Int64.fetchOne(db, sql: "SELECT value FROM og_metadata WHERE key = 'next_id'") == nil {
                // The allocator's row is gone (a damaged store): start again above every stored ID, so nothing
                // is ever handed out twice.
                try db.execute(
                    sql: "INSERT INTO og_metadata(key, value) VALUES ('next_id', ?)", arguments: [try SQLiteStore.smallestUnusedID(db, model)])
                if let end = try Int64.fetchOne(db, sql: sql, arguments: [count]) { return end }
            }
            throw SQLiteStore.noIDsLeft()
        }
        do {
            let end = try transaction.map(reserve) ?? queue.write(reserve)
            return (end - Int64(count))..<end
        } catch {
            throw StoreError.wrap(error, "cannot reserve object IDs", path: path)
        }
    }

    /// One more than the largest ID stored in any entity's table (1 for an empty store). `Int64.max` is
    /// never handed out (a reservation ends below it), so a row holding it (written by another program)
    /// is passed over rather than overflowing the sum.
    static func smallestUnusedID(_ db: Database, _ model: Model) throws -> Int64 {
        var top: Int64 = 0
        for e in model.entities {
            let sql = "SELECT max(id) FROM \(Schema.quote(e.name)) WHERE id < \(Int64.max)"
            top = max(top, try Int64.fetchOne(db, sql: sql) ?? 0)
        }
        return top + 1
    }

    static func noIDsLeft() -> StoreError {
        StoreError(.storage, "no object IDs are left: the store's ID allocator has reached #\(Int64.max)")
    }

    // MARK: - Recorded model

    struct StoredModel {
        var snapshot: ModelSnapshot
        var hash: String
        var version: Int

        /// The snapshot recorded as `json` with `hash`: `model`'s own when the hashes agree (the hash digests
        /// that JSON), so an open by the model that wrote the store decodes nothing; nil when damaged.
        static func snapshot(json: String, hash: String, model: Model) -> ModelSnapshot? {
            hash == model.versionHash ? model.snapshot : ModelSnapshot.decode(Data(json.utf8))
        }
    }

    /// The key of each model version the store was upgraded from: `upgraded_from.6` = 7.
    static let upgradedPrefix = "upgraded_from."

    func upgradedVersions() throws(StoreError) -> [Int] {
        do {
            return try read { db in
                try String.fetchAll(
                    db, sql: "SELECT substr(key, ?) FROM og_metadata WHERE substr(key, 1, ?) = ?",
                    arguments: [Self.upgradedPrefix.count + 1, Self.upgradedPrefix.count, Self.upgradedPrefix]
                ).compactMap { Int($0) }.sorted()
            }
        } catch {
            throw StoreError.wrap(error, "cannot read the store's versions", path: path)
        }
    }

    /// Whether `db` has the table `name` now, from SQLite's own schema. Not GRDB's `tableExists`: it reads the
    /// whole schema into a per-connection cache (70,000 instructions a call, six calls at every open), and
    /// that cache missed another connection's changes (a detach dropping the outbox while the outliner synced).
    /// A statement first brings SQLite's copy of the schema up to date with the file, unless `current` (a
    /// write transaction whose first statement has run checked the schema's version).
    static func hasTable(_ db: Database, _ name: String, current: Bool = false) throws -> Bool {
        if !current { _ = try Int.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM sqlite_master LIMIT 1")) }
        return sqlite3_table_column_metadata(db.sqliteConnection, "main", name, nil, nil, nil, nil, nil, nil) == SQLITE_OK
    }

    static func readStoredModel(_ db: Database, model: Model) throws -> StoredModel? {
        guard try hasTable(db, "og_metadata") else { return nil }
        let rows = try Row.fetchAll(db, sql: "SELECT key, value FROM og_metadata WHERE key IN ('model', 'model_hash', 'model_version')")
        var dict: [String: DatabaseValue] = [:]
        for r in rows { dict[r["key"]] = r["value"] as DatabaseValue }
        guard let json = dict["model"].flatMap(String.fromDatabaseValue), let hash = dict["model_hash"].flatMap(String.fromDatabaseValue),
            let version = dict["model_version"].flatMap(Int.fromDatabaseValue),
            let snapshot = StoredModel.snapshot(json: json, hash: hash, model: model)
        else {
            throw StoreError(.notAStore, "the store's model record is damaged")
        }
        return StoredModel(snapshot: snapshot, hash: hash, version: version)
    }

    static func writeModel(_ db: Database, _ model: Model) throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO og_metadata(key, value) VALUES ('model', ?), ('model_hash', ?), ('model_version', ?), \
                ('layout', ?), ('layout_hash', ?)
                """,
            arguments: [
                String(decoding: model.snapshot.json, as: UTF8.self), model.versionHash, model.version, SlotLayout(model).json, model.versionHash
            ])
    }

    /// The slot layout of the model that wrote the store (whose hash is `hash`), when the store keeps one
    /// for it: written since 2026-11-30, and not left behind by an earlier program that migrated the store
    /// without writing one.
    static func readLayout(_ db: Database, for hash: String, expecting expected: SlotLayout? = nil) throws -> SlotLayout? {
        guard try String.fetchOne(db, sql: "SELECT value FROM og_metadata WHERE key = 'layout_hash'") == hash else { return nil }
        return try String.fetchOne(db, sql: "SELECT value FROM og_metadata WHERE key = 'layout'").flatMap {
            SlotLayout.decode($0, expecting: expected)
        }
    }
}
