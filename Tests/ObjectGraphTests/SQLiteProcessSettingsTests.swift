import Foundation
import Testing

@testable import ObjectGraph

/// SQLite's process-wide settings are made before the process first uses SQLite through a store. Each test
/// runs in a fresh process (an exit test), since in this one another test may have used SQLite first.
@Suite struct SQLiteProcessSettingsTests {
    /// Memory statistics off: SQLite then counts no allocation, so its count stays 0 with a store open and
    /// written to (with them on, as SQLite's default, it is the memory the connection holds).
    @Test func aStoreTurnsSQLitesMemoryStatisticsOff() async {
        await #expect(processExitsWith: .success) {
            let context = Context(store: try Store(inMemoryWith: Fixtures.rulesGraph))
            let owner = try context.insert("Owner")
            owner["name"] = .string("Ann")
            try context.save()
            exit(SQLiteProcessSettingsTests.sqliteMemoryUsed() == 0 ? EXIT_SUCCESS : EXIT_FAILURE)
        }
    }

    /// `sqlite3_memory_used()`, found at run time (these tests do not import SQLite).
    static func sqliteMemoryUsed() -> Int64 {
        guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "sqlite3_memory_used") else { return -1 }
        return unsafeBitCast(symbol, to: (@convention(c) () -> Int64).self)()
    }
}
