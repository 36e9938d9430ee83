import GRDB

@testable import ObjectGraph

/// SQL run on an SQLite store's own connection, as another program would (kept apart: GRDB has a
/// `FetchRequest` of its own).
enum SecondStoreSQL {
    static func execute(_ store: Store, _ sql: String, _ id: Int64) throws {
        try store.read { db in try db.execute(sql: sql, arguments: [id]) }
    }
}
