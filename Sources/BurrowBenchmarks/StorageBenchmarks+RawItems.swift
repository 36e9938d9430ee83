import GRDBSQLite

/// The stored items below the top item as raw SQLite reads them, for baselines that delete them and put
/// them back with the C API (undo of a big delete, its batch to a controller).
extension StorageBenchmarks {
    typealias RawItem = (id: Int64, title: String, order: String, childCount: Int64, parent: Int64)

    /// Every item but the top one (ID 1), in the columns `insertRawItems` writes back.
    static func readRawItems(_ sql: RawSQLite) -> [RawItem] {
        let rows = sql.prepare("SELECT \(columns) FROM Item WHERE id != 1")
        var items: [RawItem] = []
        while sqlite3_step(rows) == SQLITE_ROW {
            items.append(
                (sqlite3_column_int64(rows, 0), sql.text(rows, 1), sql.text(rows, 4), sqlite3_column_int64(rows, 5), sqlite3_column_int64(rows, 7)))
        }
        sqlite3_finalize(rows)
        return items
    }

    /// Inserts `items` again, one row a statement, inside the caller's transaction.
    static func insertRawItems(_ sql: RawSQLite, _ items: [RawItem]) {
        let ins = sql.prepare("INSERT INTO Item (\(columns)) VALUES (?, ?, NULL, 0, ?, ?, NULL, ?, \(times))")
        for r in items {
            sqlite3_bind_int64(ins, 1, r.id)
            sql.bind(ins, 2, r.title)
            sql.bind(ins, 3, r.order)
            sqlite3_bind_int64(ins, 4, r.childCount)
            sqlite3_bind_int64(ins, 5, r.parent)
            sql.step(ins)
        }
        sqlite3_finalize(ins)
    }
}
