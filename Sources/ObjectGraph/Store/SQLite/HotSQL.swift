/// Statements every save runs, whatever the model: each is prepared once per connection and found by an
/// array index, not by hashing its SQL (which cost as much as running the smaller of them).
enum HotSQL: Int, CaseIterable {
    case changesNewest, changesOldest, changesAfter, changeLogInsert
    case historyNewest, historyOldest, historyInsert

    var sql: String {
        switch self {
        case .changesNewest: "SELECT max(seq) FROM og_changes"
        case .changesOldest: "SELECT min(seq) FROM og_changes"
        case .changesAfter: "SELECT seq, changes FROM og_changes WHERE seq > ? ORDER BY seq"
        case .changeLogInsert: "INSERT INTO og_changes (at, changes) VALUES (?, ?)"
        case .historyNewest: "SELECT seq, undone, position, cum, size FROM og_history ORDER BY seq DESC LIMIT 1"
        case .historyOldest: "SELECT seq, undone, position, cum, size FROM og_history ORDER BY seq LIMIT 1"
        case .historyInsert:
            """
            INSERT INTO og_history (name, at, origin, container_entity, container_id, focus_entity, focus_id, \
            undone, objects, size, model_hash, position, cum, step) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?)
            """
        }
    }
}
