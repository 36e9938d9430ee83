import GRDBSQLite

extension Store {
    /// Makes every SQLite store this process closes last keep its log file, cleared (read as no log), instead
    /// of deleting it, which can cost milliseconds on file systems that discard freed blocks (`LogFileReuse`
    /// says which logs). For a program that owns its process (the `burrow` program, commands and outliner);
    /// process-wide, so call it before opening any store.
    public static func keepLogFilesWhenClosing() {
        // Registering a registered VFS again as the default moves it to the front of SQLite's list.
        if let wrapper = LogFileReuse.wrapper { sqlite3_vfs_register(wrapper, 1) }
    }
}
