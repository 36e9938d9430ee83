import CSQLiteConfig

extension SQLiteStore {
    /// SQLite's settings for the whole process, made before this process first uses SQLite (SQLite takes them
    /// only then, `sqlite3_config`): every way the store reaches SQLite asks for this first (`configuration`,
    /// the model's read, the log-keeping VFS). Where something else in the process used SQLite first, they stay
    /// as SQLite's defaults, and nothing else changes.
    ///
    /// Memory statistics off: SQLite's default counts every allocation under one mutex for the whole process,
    /// so connections on different threads (a background context, the search's scan, the sync, tests run side
    /// by side) queued on it for each allocation and free. SQLite lists turning it off among its recommended
    /// options; the count is for `sqlite3_memory_used` and `sqlite3_soft_heap_limit64`, which the store does not
    /// use (2026-12-02: the sync simulation's CPU time 18 % lower, its system time two thirds lower).
    static let processSettings: Void = {
        _ = burrow_sqlite_memory_statistics_off()
    }()
}
