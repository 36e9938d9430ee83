/// Statements every save runs, whatever the model: each is prepared once per connection and found by an
/// array index, not by hashing its SQL (which cost as much as running the smaller of them).
enum HotSQL: Int, CaseIterable {
    case changesNewest, changesAfter, changeLogInsert, changeLogNumber
    case historyNewest, historyOldest, historyInsert, historyLogAfter

    var sql: String {
        switch self {
        // The log's AUTOINCREMENT counter: the newest number it gave, whichever table holds that entry.
        case .changesNewest: "SELECT seq FROM sqlite_sequence WHERE name = 'og_changes'"
        case .changesAfter: "SELECT seq, changes, at FROM og_changes WHERE seq > ? ORDER BY seq"
        case .changeLogInsert: "INSERT INTO og_changes (at, changes) VALUES (?, ?)"
        // Not `RETURNING seq`: SQLite runs that through a trigger program, which cost a rename 36,000 instructions.
        case .changeLogNumber: "UPDATE sqlite_sequence SET seq = seq + 1 WHERE name = 'og_changes'"
        case .historyNewest: "SELECT seq, undone, position, cum, size FROM og_history ORDER BY seq DESC LIMIT 1"
        case .historyOldest: "SELECT seq, undone, position, cum, size FROM og_history ORDER BY seq LIMIT 1"
        case .historyInsert:
            """
            INSERT INTO og_history (name, at, origin, container_entity, container_id, focus_entity, focus_id, \
            undone, objects, size, model_hash, position, cum, step, logged, changes) \
            VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        // The history's log entries after ?1: `logged` only grows from row to row (rows written before it
        // existed have none, and come first), so the newest rows are read back to the first at or before ?1.
        case .historyLogAfter:
            """
            SELECT logged, changes, at FROM og_history WHERE seq > coalesce((SELECT seq FROM og_history \
            WHERE logged IS NULL OR logged <= ?1 ORDER BY seq DESC LIMIT 1), 0) AND logged > ?1 AND changes IS NOT NULL \
            ORDER BY seq
            """
        }
    }
}
