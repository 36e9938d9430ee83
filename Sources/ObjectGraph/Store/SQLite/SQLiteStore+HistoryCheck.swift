import GRDB

/// The undo history's bookkeeping, checked and repaired with the rest of what is derived: every row's
/// numbers are whole, its state one of three, its position the next one and its running total the one
/// before plus its size; and no action is done after an undone one (redo takes them back oldest first).
extension SQLiteStore {
    func checkHistory(_ db: Database) throws -> [StoreProblem] {
        guard try SQLiteStore.hasTable(db, "og_history") else { return [] }
        var out: [StoreProblem] = []
        func problem(_ text: String) { out.append(StoreProblem(.history, "undo history: " + text)) }
        let bad =
            try Int.fetchOne(
                db,
                sql: """
                    SELECT count(*) FROM og_history WHERE typeof(position) <> 'integer' OR typeof(cum) <> 'integer' \
                    OR typeof(size) <> 'integer' OR typeof(undone) <> 'integer' OR undone NOT IN (0, 1, 2)
                    """) ?? 0
        if bad > 0 {
            problem("\(bad) action\(bad == 1 ? " has" : "s have") numbers that are not whole or a state that is none of done, undone, skipped")
        }
        let rows = try Row.fetchCursor(
            db, sql: "SELECT seq, CAST(position AS INTEGER), CAST(cum AS INTEGER), CAST(size AS INTEGER), undone FROM og_history ORDER BY seq")
        var previous: (position: Int64, cum: Int64)?
        var gaps = 0, sums = 0, doneAfterUndone = 0
        var sawUndone = false
        while let row = try rows.next() {
            let position: Int64 = row[1] ?? 0, cum: Int64 = row[2] ?? 0, size: Int64 = row[3] ?? 0
            if let p = previous {
                if position != p.position &+ 1 { gaps += 1 }
                if cum != p.cum &+ size { sums += 1 }
            }
            let state = Int.fromDatabaseValue(row[4] as DatabaseValue)
            if state == HistoryState.undone.rawValue {
                sawUndone = true
            } else if state == HistoryState.done.rawValue && sawUndone {
                doneAfterUndone += 1
            }
            previous = (position, cum)
        }
        if gaps > 0 { problem("\(gaps) position\(gaps == 1 ? " does" : "s do") not follow the one before") }
        if sums > 0 { problem("\(sums) running total\(sums == 1 ? " is" : "s are") not the one before plus the action's size") }
        if doneAfterUndone > 0 { problem("\(doneAfterUndone) action\(doneAfterUndone == 1 ? " is" : "s are") done after an undone one") }
        return out
    }

    /// Numbers the actions again in order, from their steps' sizes, and passes over (marks skipped) an undone
    /// action older than a done one and a state that is none of the three. Returns what it did.
    func repairHistory(_ db: Database) throws -> [String] {
        guard try !checkHistory(db).isEmpty else { return [] }
        memoInTransaction.historyNewest = nil
        try db.execute(sql: "UPDATE og_history SET size = length(step) WHERE typeof(size) <> 'integer' OR size <> length(step)")
        try db.execute(sql: "UPDATE og_history SET undone = 2 WHERE typeof(undone) <> 'integer' OR undone NOT IN (0, 1, 2)")
        try db.execute(
            sql: """
                UPDATE og_history SET undone = 2 WHERE undone = 1 \
                AND seq < (SELECT max(seq) FROM og_history WHERE undone = 0)
                """)
        try db.execute(
            sql: """
                UPDATE og_history SET position = numbered.p, cum = numbered.c FROM \
                (SELECT seq, row_number() OVER (ORDER BY seq) AS p, sum(size) OVER (ORDER BY seq) AS c FROM og_history) AS numbered \
                WHERE og_history.seq = numbered.seq
                """)
        return ["numbered the undo history's actions again"]
    }
}
