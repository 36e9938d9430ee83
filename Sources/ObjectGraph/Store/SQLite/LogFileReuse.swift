import GRDBSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where SQLite deletes a store's write-ahead log, clears the log's header instead and keeps the file.
///
/// SQLite deletes the log when the last connection to a file closes, after copying the log into the file and
/// syncing it, while it holds the file's exclusive lock. On a file system that discards freed blocks at once
/// (ext4's `discard`), that `unlink` took 2–3 ms, a quarter of a quick command (2026-11-30). A log whose
/// 32-byte header is not a log's header reads to SQLite as no log at all (`walIndexRecover` finds no valid
/// header and starts an empty log); the next writer writes a new header with new random salts, and syncs it
/// before any frame (SQLite's ticket ff5be73dee), so frames left from before never match it.
///
/// Only the header is cleared, one sector, so a power cut leaves either the new header (no log) or the old
/// one with every old frame intact (a log whose replay equals the file, which was synced before the delete).
/// Clearing every byte was tried and withdrawn: unsynced, blocks reach the disk in any order, and an old
/// header with a prefix of old frames replays an older state (DECISIONS 2026-11-30). Old frames stay in the
/// file until overwritten, as freed pages stay in the store itself (`secure_delete = FAST`).
///
/// Only for a regular file named `…-wal` of 32 bytes to `keptSize`: a bigger log (a big import's) is deleted,
/// as SQLite would. Anything that fails falls back to SQLite's own delete. Process-wide (it is SQLite's
/// default VFS that changes), so only a program that asks for it (`Store.keepLogFilesWhenClosing()`).
/// Readers that must not write take a kept log for no log (`logMayBeInUse(beside:)`).
enum LogFileReuse {
    /// The largest log kept: a quick command's log is tens of kilobytes; a big one is not worth its space.
    static let keptSize = 1 << 20

    /// The size of a log's header (SQLite's `WAL_HDRSIZE`).
    static let headerSize = 32

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

    /// Clears the header of the log at `path` when it is one this keeps; false when it is not (then it is
    /// deleted).
    static func clear(_ path: UnsafePointer<CChar>) -> Bool {
        let length = strlen(path)
        guard length > 4, strcmp(path + length - 4, "-wal") == 0 else { return false }
        let fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size >= headerSize,
            status.st_size <= keptSize
        else { return false }
        let zeros = [UInt8](repeating: 0, count: headerSize)
        return pwrite(fd, zeros, headerSize, 0) == headerSize
    }

    /// True when a connection may have the store at `path` open, or its log may hold frames: the shared
    /// index (`-shm`) is there, which SQLite makes at a connection's first read and removes at the last close,
    /// or the log starts with a log's header (SQLite's magic number, either byte order). False for neither: no
    /// log, an empty one or one kept with its header cleared, which SQLite reads as no log, and no connection.
    /// A reader that must not write may then read the file alone (`immutable`), as where there is no log.
    /// The index, not the log's header alone: a connection that has read but not yet written leaves a kept
    /// log cleared, and its checkpoint would then rewrite the file under an `immutable` reader (a process
    /// test caught that: "database disk image is malformed").
    static func logMayBeInUse(beside path: String) -> Bool {
        if access(path + "-shm", F_OK) == 0 || errno != ENOENT { return true }
        let fd = open(path + "-wal", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return errno != ENOENT }  // unreadable: someone's, so maybe in use
        defer { close(fd) }
        var magic: [UInt8] = [0, 0, 0, 0]
        guard read(fd, &magic, 4) == 4 else { return false }
        return magic[0] == 0x37 && magic[1] == 0x7F && magic[2] == 0x06 && (magic[3] == 0x82 || magic[3] == 0x83)
    }
}
