import GRDBSQLite
import ObjectGraph

/// The search index's chunks (`og_text_Item`, see `TextChunk`) written through the raw C API, so that a
/// baseline writes what ours writes: rows given in ascending ID order, their texts folded beforehand, packed
/// into chunks of the store's capacity and inserted with one prepared statement.
final class RawTextIndex {
    private let sql: RawSQLite
    private let insert: OpaquePointer
    private var chunk = TextChunk(columns: 2)

    init(_ sql: RawSQLite) {
        self.sql = sql
        insert = sql.prepare("INSERT OR REPLACE INTO og_text_Item (start, data) VALUES (?, ?)")
    }

    /// Adds a row above every row added so far.
    func add(_ id: Int64, title: String, note: String?) {
        if !chunk.isEmpty && chunk.size + title.utf8.count + (note?.utf8.count ?? 0) + 14 > TextChunk.capacity { flush() }
        chunk.append(id) { $0 == 0 ? title : note }
    }

    /// Writes the last chunk and finalizes the statement.
    func finish() {
        flush()
        sqlite3_finalize(insert)
    }

    private func flush() {
        guard !chunk.isEmpty else { return }
        let start = chunk.ids[0]
        let bytes = chunk.encoded(start: start)
        sqlite3_bind_int64(insert, 1, start)
        sql.bind(insert, 2, bytes: bytes)
        sql.step(insert)
        chunk.removeAll()
    }

    /// Removes the rows with IDs in `ids` from the index: every chunk that starts among them deleted, and
    /// the chunk that holds the first of them, starting below, written again with the rows it keeps. (The
    /// rows of a deleted chunk above the range must not be kept: the range is one imported subtree, so no
    /// chunk starting inside it holds rows outside it.)
    static func remove(_ sql: RawSQLite, ids: ClosedRange<Int64>) {
        let below = sql.prepare("SELECT start, data FROM og_text_Item WHERE start < ? ORDER BY start DESC LIMIT 1")
        sqlite3_bind_int64(below, 1, ids.lowerBound)
        if sqlite3_step(below) == SQLITE_ROW {
            let start = sqlite3_column_int64(below, 0)
            let bytes = UnsafeRawBufferPointer(start: sqlite3_column_blob(below, 1), count: Int(sqlite3_column_bytes(below, 1)))
            let old = TextChunk(decoding: bytes, start: start, columns: 2)!
            var kept = TextChunk(columns: 2)
            for k in 0..<old.count {
                let texts = old.texts(ofRow: k)
                if !ids.contains(old.ids[k]) { kept.append(old.ids[k]) { texts[$0] } }
            }
            sqlite3_finalize(below)
            let write = sql.prepare("INSERT OR REPLACE INTO og_text_Item (start, data) VALUES (?, ?)")
            sqlite3_bind_int64(write, 1, start)
            sql.bind(write, 2, bytes: kept.encoded(start: start))
            sql.step(write)
            sqlite3_finalize(write)
        } else {
            sqlite3_finalize(below)
        }
        sql.exec("DELETE FROM og_text_Item WHERE start BETWEEN \(ids.lowerBound) AND \(ids.upperBound)")
    }
}
