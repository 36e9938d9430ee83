import Foundation
import GRDB
import GRDBSQLite

/// The row IDs of one table that SQLite reports changing while a statement runs, through the connection's
/// update hook: a batch update or delete learns which rows it touched for a few nanoseconds a row, where
/// `RETURNING id` costs SQLite a temporary table (measured: 100,000 rows, 20 ms of UPDATE became 65–105).
enum ChangedRowIDs {
    /// What the hook writes to: plain memory, so that a row costs a compare and a store (no reference
    /// counting, no exclusivity checks: the hook runs on the thread stepping the statement, inside `collect`).
    private struct Collector {
        var ids: UnsafeMutablePointer<Int64>
        var count: Int
        var capacity: Int
        let table: UnsafeMutablePointer<CChar>
        /// The name pointer SQLite passed for `table` last: the same pointer needs no string compare.
        var matched: UnsafePointer<CChar>?
        let operation: Int32
    }

    /// Runs `body` with the hook on `db`'s connection and returns the rows of `table` it changed by
    /// `operation` (`SQLITE_UPDATE` or `SQLITE_DELETE`), in the order SQLite changed them. GRDB installs its
    /// own hook only around statements it runs for transaction observers, which this store does not use;
    /// the hook is taken off before returning, whatever `body` does.
    static func collect(_ db: Database, table: String, operation: Int32, _ body: () throws -> Void) rethrows -> [Int64] {
        let state = UnsafeMutablePointer<Collector>.allocate(capacity: 1)
        let capacity = 1024
        state.initialize(
            to: Collector(
                ids: .allocate(capacity: capacity), count: 0, capacity: capacity, table: strdup(table), matched: nil,
                operation: operation))
        defer {
            state.pointee.ids.deallocate()
            free(state.pointee.table)
            state.deinitialize(count: 1)
            state.deallocate()
        }
        let previous = sqlite3_update_hook(
            db.sqliteConnection,
            { context, operation, _, table, rowID in
                // Safe: `context` is `state`, alive until the hook is removed (the defers run in reverse).
                guard let c = context?.assumingMemoryBound(to: Collector.self), let table, operation == c.pointee.operation else { return }
                if table != c.pointee.matched {
                    guard strcasecmp(table, c.pointee.table) == 0 else { return }
                    c.pointee.matched = table
                }
                if c.pointee.count == c.pointee.capacity {
                    let grown = UnsafeMutablePointer<Int64>.allocate(capacity: c.pointee.capacity * 2)
                    grown.moveInitialize(from: c.pointee.ids, count: c.pointee.count)
                    c.pointee.ids.deallocate()
                    c.pointee.ids = grown
                    c.pointee.capacity *= 2
                }
                c.pointee.ids[c.pointee.count] = rowID
                c.pointee.count += 1
            },
            UnsafeMutableRawPointer(state))
        precondition(previous == nil, "another update hook was installed on the store's connection")
        defer { sqlite3_update_hook(db.sqliteConnection, nil, nil) }
        try body()
        return Array(UnsafeBufferPointer(start: state.pointee.ids, count: state.pointee.count))
    }
}
