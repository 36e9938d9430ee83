import Foundation
import GRDB

extension Store {
    /// Looks for commits made by other processes (or other `Store` instances on the same file) and merges
    /// them into every context on this store, so their results controllers deliver batches: all the
    /// commits found in one poll as one change set, read on one snapshot (see `snapshot`). Cheap when
    /// nothing happened: one `PRAGMA data_version`. Call it from the run loop (the app does every 100 ms).
    ///
    /// ```swift
    /// try store.poll()
    /// ```
    /// Returns how many foreign commits were merged.
    @discardableResult
    public func poll() throws(StoreError) -> Int {
        do {
            if isCatchingUpInPlace { return try catchUp() }
            let changed = try read { db -> Bool in
                let v = try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
                defer { dataVersion = v }
                return v != dataVersion
            }
            guard changed else { return 0 }
            return try snapshot(catchingUp: false) { try catchUp() }
        } catch {
            throw StoreError.wrap(error, "cannot read changes made elsewhere", path: path)
        }
    }

    /// Takes in, on the open transaction's snapshot, every commit made elsewhere since the last one taken
    /// in: coalesced into one change set merged once into each context (applied one by one, an earlier
    /// commit's diff would read rows a later one already changed). Returns how many there were.
    @discardableResult
    func catchUp() throws -> Int {
        let (foreign, count, missed) = try takeForeignCommits()
        contexts.removeAll { $0.context == nil }
        if missed {
            for c in contexts { c.context?.resynchronize() }
        } else if count > 0 {
            for c in contexts { c.context?.merge(foreign) }
        }
        return count
    }

    /// Delivers a context's own saved change set to every context on the store, on one snapshot: when
    /// other processes committed since (before this save, or just after it), their changes go with it as
    /// one change set, so no diff reads rows a change it was not given has moved.
    func deliver(_ changes: ChangeSet, from sender: Context) {
        do {
            try snapshot(catchingUp: false) {
                let (foreign, count, missed) = try takeForeignCommits()
                contexts.removeAll { $0.context == nil }
                if missed {
                    for c in contexts { c.context?.resynchronize() }
                } else if count == 0 {
                    sender.notifyControllers(changes, local: true)
                    broadcast(changes, from: sender)
                } else {
                    var all = changes
                    all.formUnion(foreign)
                    for weak in contexts {
                        guard let c = weak.context else { continue }
                        if c === sender {
                            c.takeIn(foreign)
                            c.notifyControllers(all, local: false)
                        } else {
                            c.merge(all)
                        }
                    }
                }
            }
        } catch {
            // The store cannot be read right now: deliver what is known; the next poll brings the rest.
            sender.notifyControllers(changes, local: true)
            broadcast(changes, from: sender)
        }
    }

    /// Reads, on the open snapshot, the commits made elsewhere since the last one taken in (skipping this
    /// store's own), coalesced; and whether entries were pruned before they could be read.
    private func takeForeignCommits() throws -> (changes: ChangeSet, count: Int, missed: Bool) {
        var entries: [(seq: Int64, bytes: [UInt8])] = []
        var oldest: Int64?
        try read { db in
            // A real read first: it starts the snapshot everything after it reads.
            let top = try Int64.fetchOne(db, sql: "SELECT max(seq) FROM og_changes") ?? 0
            guard top > changeCursor else { return }
            oldest = try Int64.fetchOne(db, sql: "SELECT min(seq) FROM og_changes")
            let rows = try Row.fetchCursor(db, sql: "SELECT seq, changes FROM og_changes WHERE seq > ? ORDER BY seq", arguments: [changeCursor])
            while let row = try rows.next() {
                entries.append((row[0], [UInt8](row[1] as Data)))
            }
        }
        guard !entries.isEmpty else { return (ChangeSet(), 0, false) }
        // Entries we never saw were pruned: we cannot know what changed, so everything is re-read.
        let missed = changeCursor > 0 && (oldest ?? 0) > changeCursor + 1
        var foreign = ChangeSet()
        var count = 0
        for e in entries {
            changeCursor = max(changeCursor, e.seq)
            if ownCommits.remove(e.seq) != nil { continue }
            if let changes = ChangeLog.decode(e.bytes, model: model), !changes.isEmpty {
                foreign.formUnion(changes)
                count += 1
            }
        }
        return (foreign, count, missed)
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
