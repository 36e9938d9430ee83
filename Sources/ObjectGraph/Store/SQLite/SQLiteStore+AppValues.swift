import GRDB

/// A program's values in `og_metadata` under keys beginning "app.", apart from the store's own.
extension SQLiteStore {
    func appValue(_ key: String) throws(StoreError) -> String? {
        do {
            return try read { db in
                try String.fetchOne(db, sql: "SELECT value FROM og_metadata WHERE key = ?", arguments: ["app." + key])
            }
        } catch {
            throw StoreError.wrap(error, "cannot read the value “\(key)” kept in the store", path: path)
        }
    }

    func appValueKeys(withPrefix prefix: String) throws(StoreError) -> [String] {
        do {
            return try read { db in
                // By comparing the key's start, not LIKE: `_` and `%` in a prefix are themselves.
                try String.fetchAll(
                    db, sql: "SELECT substr(key, 5) FROM og_metadata WHERE substr(key, 1, ?) = ? ORDER BY key",
                    arguments: [4 + prefix.unicodeScalars.count, "app." + prefix])
            }
        } catch {
            throw StoreError.wrap(error, "cannot read the values kept in the store", path: path)
        }
    }

    func setAppValue(_ key: String, _ value: String?) throws(StoreError) {
        func write(_ db: Database) throws {
            if let value {
                try db.execute(sql: "INSERT OR REPLACE INTO og_metadata (key, value) VALUES (?, ?)", arguments: ["app." + key, value])
            } else {
                try db.execute(sql: "DELETE FROM og_metadata WHERE key = ?", arguments: ["app." + key])
            }
        }
        do {
            if let db = transaction { return try write(db) }
            try withWriteTransaction(write)
        } catch {
            throw StoreError.wrap(error, "cannot keep the value “\(key)” in the store", path: path)
        }
    }
}
