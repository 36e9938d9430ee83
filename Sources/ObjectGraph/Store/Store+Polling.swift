import Foundation
import GRDB

extension Store {
    /// Looks for commits made by other processes (or other `Store` instances on the same file) and merges
    /// each into every context on this store, so their results controllers deliver batches. Cheap when
    /// nothing happened: one `PRAGMA data_version`. Call it from the run loop (the app does every 100 ms).
    ///
    /// ```swift
    /// try store.poll()
    /// ```
    /// Returns how many foreign commits were merged.
    @discardableResult
    public func poll() throws(StoreError) -> Int {
        var entries: [(seq: Int64, bytes: [UInt8])] = []
        var oldest: Int64?
        do {
            let changed = try read { db -> Bool in
                let v = try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
                defer { dataVersion = v }
                return v != dataVersion
            }
            guard changed else { return 0 }
            try read { db in
                oldest = try Int64.fetchOne(db, sql: "SELECT min(seq) FROM og_changes")
                let rows = try Row.fetchCursor(db, sql: "SELECT seq, changes FROM og_changes WHERE seq > ? ORDER BY seq", arguments: [changeCursor])
                while let row = try rows.next() {
                    entries.append((row[0], [UInt8](row[1] as Data)))
                }
            }
        } catch {
            throw StoreError.wrap(error, "cannot read changes made elsewhere", path: path)
        }
        // Entries we never saw were pruned: we cannot know what changed, so everything is re-read.
        let missed = changeCursor > 0 && (oldest ?? 0) > changeCursor + 1
        var merged = 0
        var foreign: [ChangeSet] = []
        for e in entries {
            changeCursor = max(changeCursor, e.seq)
            if ownCommits.remove(e.seq) != nil { continue }
            if let changes = ChangeLog.decode(e.bytes, model: model) {
                foreign.append(changes)
            }
        }
        contexts.removeAll { $0.context == nil }
        if missed {
            for c in contexts { c.context?.resynchronize() }
            return foreign.count
        }
        for changes in foreign where !changes.isEmpty {
            for c in contexts { c.context?.merge(changes) }
            merged += 1
        }
        return merged
    }

    /// Appends a change set to the log inside the saving transaction; returns its sequence number.
    func log(_ changes: ChangeSet, _ db: Database) throws -> Int64 {
        let stmt = try statement(db, "INSERT INTO og_changes (at, changes) VALUES (?, ?)")
        stmt.bind(.double(Date().timeIntervalSince1970), at: 1)
        stmt.bind(.data(Data(ChangeLog.encode(changes, model: model))), at: 2)
        try stmt.run(db)
        savesSincePrune += 1
        if savesSincePrune >= 256 {
            savesSincePrune = 0
            try db.execute(sql: "DELETE FROM og_changes WHERE at < ?", arguments: [Date().timeIntervalSince1970 - ChangeLog.retention])
        }
        return db.lastInsertedRowID
    }
}

extension Context {
    /// Forgets everything cached and has every controller re-read its result (after missed changes).
    func resynchronize() {
        refreshAll()
        for o in registered.values where !o.hasChanges { o.relations = [:] }
        controllers.removeAll { $0.controller == nil }
        for c in controllers { try? c.controller?.reloadAll() }
    }
}

extension ResultsController {
    /// Re-reads the result and delivers the difference from what the observer last saw.
    func reloadAll() throws(StoreError) {
        guard fetched, !isInvalidated else { return }
        try completeLoading()
        let fresh = try context.fetch(request).rowIDs
        var touched: [Int64: PropertyMask] = [:]
        for id in storage.rowIDs { touched[id] = PropertyMask(rawValue: ~0) }
        for id in fresh { touched[id] = PropertyMask(rawValue: ~0) }
        if isPaused {
            for (id, mask) in touched { pending[id, default: []].formUnion(mask) }
            return
        }
        let batch = try diff(touched, local: false)
        if !batch.isEmpty { onChange?(batch) }
    }
}
