/// The SQL that stores a model: one table per entity, an `id` primary key, one column per stored
/// attribute and per foreign key, and the indexes the model asks for.
enum Schema {
    static func quote(_ name: String) -> String { "\"" + name + "\"" }

    static func createTable(_ e: ModelSnapshot.EntitySnapshot, in model: ModelSnapshot) -> String {
        var cols = [#""id" INTEGER PRIMARY KEY"#]
        for a in e.storedAttributes { cols.append(column(a)) }
        for r in e.relationships where e.foreignKeys.contains(r.name) { cols.append(foreignKeyColumn(r)) }
        return "CREATE TABLE \(quote(e.name)) (\(cols.joined(separator: ", ")))"
    }

    static func column(_ a: ModelSnapshot.AttributeSnapshot, default value: Value = .null) -> String {
        var s = "\(quote(a.name)) \(columnType(a.type))"
        if !value.isNull { s += " DEFAULT \(Schema.literal(value))" }
        return s
    }

    /// Deferred, so the rows of one save can be written in any order; delete rules are the context's job.
    static func foreignKeyColumn(_ r: Relationship) -> String {
        "\(quote(r.name)) INTEGER REFERENCES \(quote(r.destination))(\"id\") DEFERRABLE INITIALLY DEFERRED"
    }

    /// Index name → CREATE statement, for every index the entity needs.
    static func indexes(_ e: ModelSnapshot.EntitySnapshot) -> [String: String] {
        var out: [String: String] = [:]
        func add(_ columns: [String], unique: Bool, partial: Bool = false) {
            let name = "og_\(unique ? "uq" : "ix")_\(e.name)_" + columns.joined(separator: "_")
            out[name] =
                "CREATE \(unique ? "UNIQUE " : "")INDEX \(quote(name)) ON \(quote(e.name))("
                + columns.map(quote).joined(separator: ", ") + ")"
                + (partial ? " WHERE \(quote(columns[0])) IS NOT NULL" : "")
        }
        // A unique optional attribute is indexed only where it has a value: SQLite's UNIQUE lets NULLs repeat
        // anyway, so the guarantee is the same, and rows without a value (usually nearly all of them) cost
        // nothing to insert. Lookups by value (`=`) still use the index.
        for a in e.storedAttributes where a.indexed || a.unique {
            add([a.name], unique: a.unique, partial: a.unique && a.optional)
        }
        for fk in e.foreignKeys { add([fk], unique: false) }
        for i in e.indexes { add(i.properties, unique: i.isUnique, partial: i.isSparse) }
        // A single-column index is redundant when a compound index starts with that column.
        for fk in e.foreignKeys where e.indexes.contains(where: { $0.properties.first == fk && $0.properties.count > 1 }) {
            out["og_ix_\(e.name)_\(fk)"] = nil
        }
        return out
    }

    static let metadataTable = """
        CREATE TABLE og_metadata (key TEXT PRIMARY KEY NOT NULL, value) WITHOUT ROWID
        """

    /// The SQLite column type an attribute of `type` is stored as.
    static func columnType(_ type: AttributeType) -> String {
        switch type {
        case .string: return "TEXT"
        case .integer64, .bool: return "INTEGER"
        case .double, .date: return "REAL"
        case .binary, .uuid: return "BLOB"
        }
    }

    /// `"id", "col", …`: the columns a read of `layout` selects.
    static func columns(_ layout: RowLayout, _ entity: EntityDescription) -> String {
        (["\"id\""] + layout.slots.map { quote(entity.properties[$0].name) }).joined(separator: ", ")
    }

    /// The change log other connections read (see `ChangeLog` for the encoding of `changes`).
    static let changeLogTable = """
        CREATE TABLE IF NOT EXISTS og_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, changes BLOB NOT NULL)
        """

    /// The undo history every process shares (see `SQLiteStore+History`): one row per action, its step
    /// encoded by `UndoRecord.encoded(changedOnly: true)`, its position and the bytes of every step up to it (`cum`). `undone`: 0
    /// done, 1 undone, 2 skipped. No index on `undone`: undone actions always follow the done ones, so both ends
    /// of redo are found by walking back from the newest row, and an index would cost every edit a page write.
    /// `changes`: the change-log entry of the save that recorded the action, numbered `logged` by the log's
    /// counter (see `SQLiteStore+Changes`); kept here so that the save writes one row, not one in each table.
    static let historyTable = [
        """
        CREATE TABLE IF NOT EXISTS og_history (seq INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, at REAL NOT NULL, \
        origin TEXT NOT NULL, container_entity INTEGER, container_id INTEGER, focus_entity INTEGER, focus_id INTEGER, \
        undone INTEGER NOT NULL, objects INTEGER NOT NULL, size INTEGER NOT NULL, model_hash TEXT NOT NULL, \
        position INTEGER NOT NULL, cum INTEGER NOT NULL, logged INTEGER, changes BLOB, step BLOB NOT NULL)
        """,
        // Stores written before 2026-11-23 have it.
        "DROP INDEX IF EXISTS og_history_undone"
    ]

    /// The literal SQL for a stored default.
    static func literal(_ v: Value) -> String {
        switch v {
        case .null: return "NULL"
        case .string(let s): return "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
        case .integer(let i): return String(i)
        case .double(let d): return d.isFinite ? "\(d)" : "NULL"
        case .bool(let b): return b ? "1" : "0"
        case .date(let d): return "\(d.timeIntervalSince1970)"
        case .data(let d): return "X'" + d.map { String(format: "%02x", $0) }.joined() + "'"
        case .uuid(let u): return "X'" + u.bytes.map { String(format: "%02x", $0) }.joined() + "'"
        }
    }
}
