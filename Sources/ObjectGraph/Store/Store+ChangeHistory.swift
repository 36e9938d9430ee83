extension Store {
    /// How long the store keeps a commit in its log, in seconds: a reader that asks for commits older than
    /// this gets ``ChangeHistory/isComplete`` false.
    public static var changeHistoryRetention: Double { ChangeLog.retention }

    /// The token of the newest commit, for a reader that starts following the store now.
    public func currentChangeToken() throws(StoreError) -> ChangeToken {
        ChangeToken(try backend.latestChange())
    }

    /// Every commit made after `token` (from the first when nil: complete only while the log still holds
    /// every commit ever made), by any context or process, with its author; only the changes to `entities` when given (commits that changed none of
    /// them are left out). Read on one snapshot of the store.
    ///
    /// ```swift
    /// let history = try store.changeHistory(after: token, entities: ["Item"])
    /// ```
    public func changeHistory(after token: ChangeToken?, entities: Set<String>? = nil) throws(StoreError) -> ChangeHistory {
        var wanted: Set<Int>?
        if let entities {
            var indexes = Set<Int>()
            for name in entities {
                guard let e = model.entity(name) else {
                    throw StoreError(.unknownEntity, "there is no entity called \(name) to read the history of", path: path, entity: name)
                }
                indexes.insert(e.index)
            }
            wanted = indexes
        }
        let after = token?.value ?? 0
        let (entries, newest) = try backend.authoredChanges(after: after)
        // Every number after the token went to one entry (see `Store.poll`): a gap is an entry pruned.
        var complete = true
        var expected = after + 1
        var commits: [ChangeHistory.Commit] = []
        for entry in entries {
            if entry.seq != expected { complete = false }
            expected = entry.seq + 1
            guard var changes = entry.changes else {
                complete = false
                continue
            }
            if let wanted { changes = changes.restricted(to: wanted) }
            if changes.isEmpty { continue }
            commits.append(ChangeHistory.Commit(token: ChangeToken(entry.seq), author: entry.author, date: entry.date, changes: changes))
        }
        if expected <= newest { complete = false }
        return ChangeHistory(commits: commits, token: ChangeToken(max(newest, after)), isComplete: complete)
    }
}
