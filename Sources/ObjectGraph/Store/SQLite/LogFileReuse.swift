import GRDBSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where SQLite deletes a store's write-ahead log, clears the log's bytes instead and keeps the file.
///
/// SQLite deletes the log when the last connection to a file closes, after copying the log into the file,
/// while it holds the file's exclusive lock. On a file system that discards freed blocks at once (ext4's
/// `discard`), that `unlink` took 2–3 ms, a quarter of a quick command (2026-11-30). A log whose header is
/// not a log's header reads to SQLite exactly as no log at all (`walIndexRecover` finds no valid header and
/// starts an empty log), so clearing it, under the same lock, leaves every later reader where a deleted log
/// would; the next writer writes a new header and its frames over the same blocks. Every byte is cleared, not
/// only the header: old page images would keep text the file itself has since overwritten (the store deletes
/// with `secure_delete`). The file alone still holds everything, as after a delete. Only for a regular file
/// named `…-wal` of at most `keptSize` bytes: a bigger log (a big import's) is deleted, as SQLite would.
/// Anything that fails falls back to SQLite's own delete.
///
/// Process-wide (it is SQLite's default VFS that changes), so only a program that asks for it
/// (`Store.keepLogFilesWhenClosing()`); every other delete goes to SQLite's own code unchanged.
enum LogFileReuse {
    /// The largest log kept: a quick command's log is tens of kilobytes, and clearing a megabyte costs less
    /// than deleting it did.
    static let keptSize = 1 << 20

    /// The VFS this one wraps: SQLite's default before `wrapper`. Written once, before the wrapper is
    /// registered (SQLite's registration lock orders it before any use).
    nonisolated(unsafe) private static var base: UnsafeMutablePointer<sqlite3_vfs>?

    /// The name the wrapper is registered under (a connection can ask for it by name).
    static let name = "burrow-keeps-logs"

    /// The wrapper, registered with SQLite (not as its default: `Store.keepLogFilesWhenClosing()` makes it
    /// that) at first use, once per process; nil if SQLite has no default VFS to wrap.
    nonisolated(unsafe) static let wrapper: UnsafeMutablePointer<sqlite3_vfs>? = {
        guard let found = sqlite3_vfs_find(nil) else { return nil }
        base = found
        // A copy of the default VFS (its methods and the data they find through it), under a name of its
        // own, with `xDelete` replaced. Kept for the process's life, as SQLite requires of a registered VFS.
        let wrapper = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        wrapper.initialize(to: found.pointee)
        wrapper.pointee.pNext = nil
        wrapper.pointee.zName = UnsafePointer(strdup(name))
        wrapper.pointee.xDelete = { _, path, syncDirectory in
            if let path, LogFileReuse.clear(path) { return SQLITE_OK }
            guard let base = LogFileReuse.base, let delete = base.pointee.xDelete else { return SQLITE_IOERR }
            return delete(base, path, syncDirectory)
        }
        return sqlite3_vfs_register(wrapper, 0) == SQLITE_OK ? wrapper : nil
    }()

    /// Clears the log at `path` when it is one this keeps; false when it is not (then it is deleted).
    static func clear(_ path: UnsafePointer<CChar>) -> Bool {
        let length = strlen(path)
        guard length > 4, strcmp(path + length - 4, "-wal") == 0 else { return false }
        let fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size >= 32, status.st_size <= keptSize else {
            return false
        }
        let size = Int(status.st_size)
        let zeros = [UInt8](repeating: 0, count: size)
        // The header first, then the rest: a header written alone already reads as no log.
        guard pwrite(fd, zeros, 32, 0) == 32 else { return false }
        _ = pwrite(fd, zeros, size - 32, 32)
        return true
    }
}
