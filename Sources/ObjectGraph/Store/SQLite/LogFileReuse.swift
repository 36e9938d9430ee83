import GRDBSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where SQLite deletes a store's write-ahead log, clears the log instead and keeps the file.
///
/// SQLite deletes the log when the last connection to a file closes, after copying the log into the file and
/// syncing it, while it holds the file's exclusive lock. On a file system that discards freed blocks at once
/// (ext4's `discard`), that `unlink` took 2–3 ms, a quarter of a quick command (2026-11-30). A log whose
/// 32-byte header is not a log's header reads to SQLite as no log at all (`walIndexRecover` finds no valid
/// header and starts an empty log); the next writer writes a new header with new random salts, and syncs it
/// before any frame (SQLite's ticket ff5be73dee), so frames left from before never match it.
///
/// The header is cleared first and synced, one sector: a power cut before the sync leaves the old log whole
/// (its replay is what the file holds, unless the file was replaced since, which is why the sync), after it
/// no log. Only then is the rest of the log cleared, which needs no sync: it keeps no old page images of
/// text since deleted (`burrow rm`, `history --clear`). Clearing every byte before a sync was tried and
/// withdrawn: blocks reach the disk in any order, and an old header with a prefix of old frames replays an
/// older state (DECISIONS 2026-11-30).
///
/// Only for a regular file named `…-wal` of 32 bytes to `keptSize`, with one link, with the mode and owner
/// of the store beside it (SQLite gives a log those when it makes one, and the next connection would write
/// the store's rows into a kept log as it is), in a folder of the same owner that no one else may write to
/// (not group- or world-writable, not sticky): anything else is deleted, as SQLite would, and so is anything
/// that fails. The folder because a store given to another user afterwards (`sudo burrow add`, then `chown`)
/// would keep a log that user cannot write, nor remove from a sticky folder: SQLite would open it read-only and
/// every write fail. Where only the owner may make files, only the owner (or root) can open the store in WAL
/// mode at all (its `-shm` is made at the first read), so the log a kept file stands for was theirs anyway.
/// Left: another SQLite program that opens the store after a `chmod` of it and before this program opens it
/// again writes its rows into the kept log with the log's older mode (not narrowed when kept: other users
/// could then no longer tell, reading in a read-only folder, that the log holds nothing).
///
/// Process-wide (it is SQLite's default VFS that changes), so only a program that asks for it
/// (`Store.keepLogFilesWhenClosing()`: the `burrow` program, its commands and its outliner). Its open gives a
/// kept log the store's mode and group again where the store's changed since (`matchStore`). Readers that
/// must not write take a kept log with no connection for no log (`logMayBeInUse(beside:)`).
enum LogFileReuse {
    /// The largest log kept: a quick command's log is tens of kilobytes; a big one is not worth its space.
    static let keptSize = 1 << 20

    /// The size of a log's header (SQLite's `WAL_HDRSIZE`).
    static let headerSize = 32

    /// The VFS this one wraps: SQLite's default before `wrapper`. `nonisolated(unsafe)`, and safe: written
    /// once, inside `wrapper`'s initializer (a global's, which Swift runs once under its own lock), before the
    /// wrapper is registered; SQLite's registration lock orders that write before any call that reads it.
    /// `theWrapperIsMadeOnceFromManyThreads` asks from 16 threads at once.
    nonisolated(unsafe) private static var base: UnsafeMutablePointer<sqlite3_vfs>?

    /// The name the wrapper is registered under (a connection can ask for it by name).
    static let name = "burrow-keeps-logs"

    /// The wrapper, registered with SQLite (not as its default: `Store.keepLogFilesWhenClosing()` makes it
    /// that) at first use, once per process; nil if SQLite has no default VFS to wrap. `nonisolated(unsafe)`
    /// only because a pointer is not `Sendable`: it is a `let`, initialized once, and what it points at is
    /// never written after registration.
    nonisolated(unsafe) static let wrapper: UnsafeMutablePointer<sqlite3_vfs>? = {
        SQLiteStore.processSettings  // before `sqlite3_vfs_find`, SQLite's first use in the `burrow` program
        guard let found = sqlite3_vfs_find(nil) else { return nil }
        base = found
        // A copy of the default VFS (its methods and the data they find through it), under a name of its
        // own, with `xDelete` and `xOpen` wrapped. Kept for the process's life, as SQLite requires of a
        // registered VFS.
        let wrapper = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        wrapper.initialize(to: found.pointee)
        wrapper.pointee.pNext = nil
        wrapper.pointee.zName = UnsafePointer(strdup(name))
        wrapper.pointee.xDelete = { _, path, syncDirectory in
            if let path, LogFileReuse.clear(path) { return SQLITE_OK }
            guard let base = LogFileReuse.base, let delete = base.pointee.xDelete else { return SQLITE_IOERR }
            return delete(base, path, syncDirectory)
        }
        wrapper.pointee.xOpen = { _, path, file, flags, outFlags in
            if let path, flags & SQLITE_OPEN_WAL != 0 { LogFileReuse.matchStore(path) }
            guard let base = LogFileReuse.base, let open = base.pointee.xOpen else { return SQLITE_CANTOPEN }
            return open(base, path, file, flags, outFlags)
        }
        return sqlite3_vfs_register(wrapper, 0) == SQLITE_OK ? wrapper : nil
    }()

    /// Clears the log at `path` when it is one this keeps (header, sync, then the rest up to its last byte
    /// that is not zero); false when it is not (then it is deleted).
    static func clear(_ path: UnsafePointer<CChar>) -> Bool {
        let length = strlen(path)
        guard length > 4, strcmp(path + length - 4, "-wal") == 0 else { return false }
        let fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var log = stat(), store = stat(), folder = stat()
        let logPath = String(cString: path)
        let folderPath = logPath.lastIndex(of: "/").map { String(logPath[..<$0]) } ?? "."
        guard fstat(fd, &log) == 0, log.st_mode & S_IFMT == S_IFREG, log.st_nlink == 1,
            log.st_size >= headerSize, log.st_size <= keptSize,
            stat(String(logPath.dropLast(4)), &store) == 0, log.st_mode & 0o7777 == store.st_mode & 0o7777,
            log.st_uid == store.st_uid, log.st_gid == store.st_gid,
            stat(folderPath.isEmpty ? "/" : folderPath, &folder) == 0, folder.st_uid == store.st_uid,
            folder.st_mode & (S_IWGRP | S_IWOTH | S_ISVTX) == 0
        else { return false }
        guard pwrite(fd, zeros, headerSize, 0) == headerSize, fdatasync(fd) == 0,
            let end = contentEnd(fd, size: Int(log.st_size))
        else { return false }
        var at = headerSize
        while at < end {
            let count = min(end - at, chunkSize)
            guard pwrite(fd, zeros, count, off_t(at)) == count else { return false }
            at += count
        }
        return true
    }

    /// The size of the reads and writes that clear a log.
    private static let chunkSize = 64 << 10

    /// `chunkSize` zero bytes, made once (a global's initializer) and only read.
    private static let zeros = [UInt8](repeating: 0, count: chunkSize)

    /// Where the log at `fd` ends, past its last byte that is not zero; nil if it cannot be read. A log was
    /// all zeros after its header when last cleared, and SQLite writes its frames from the header on, so
    /// only that much is written again: a quick command's log of a few frames in a file a bigger one left at
    /// a megabyte wrote the whole megabyte of zeros at every close (and allocated and filled them, 6 % of a
    /// `burrow add`'s instructions).
    private static func contentEnd(_ fd: Int32, size: Int) -> Int? {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var end = size
        while end > headerSize {
            let start = max(headerSize, end - chunkSize)
            let count = end - start
            guard pread(fd, buffer, count, off_t(start)) == count else { return nil }
            if memcmp(buffer, zeros, count) != 0 {
                // Eight bytes at a time back to the last word that is not zero, then byte by byte within it.
                var last = count
                while last >= 8, buffer.loadUnaligned(fromByteOffset: last - 8, as: UInt64.self) == 0 { last -= 8 }
                while buffer.load(fromByteOffset: last - 1, as: UInt8.self) == 0 { last -= 1 }
                return start + last
            }
            end = start
        }
        return headerSize
    }

    /// Before SQLite opens the log at `path`: a kept log whose mode differs from the store's (a `chmod` of the
    /// store since) gets the store's, and its group (as root, its owner too), as
    /// SQLite gives a log it makes. Anything that fails leaves the log as it is (SQLite opens it as it can).
    static func matchStore(_ path: UnsafePointer<CChar>) {
        let length = strlen(path)
        guard length > 4, strcmp(path + length - 4, "-wal") == 0 else { return }
        var store = stat()
        guard stat(String(String(cString: path).dropLast(4)), &store) == 0 else { return }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var log = stat()
        guard fstat(fd, &log) == 0, log.st_mode & S_IFMT == S_IFREG, log.st_nlink == 1 else { return }
        if geteuid() == 0, log.st_uid != store.st_uid || log.st_gid != store.st_gid {
            _ = fchown(fd, store.st_uid, store.st_gid)
        } else if log.st_gid != store.st_gid {
            _ = fchown(fd, uid_t.max, store.st_gid)  // the owner may give it a group they are in: the store's
        }
        if log.st_mode & 0o7777 != store.st_mode & 0o7777 { _ = fchmod(fd, store.st_mode & 0o7777) }
    }

    /// True when a connection may have the store at `path` open, or its log may hold frames: the shared
    /// index (`-shm`) is there, which SQLite makes at a connection's first read and removes at the last close
    /// that writes (a read-only connection's close leaves it, which only makes this true until the next),
    /// or the log starts with a log's header (SQLite's magic number, either byte order). False for neither: no
    /// log, an empty one or one kept with its header cleared, which SQLite reads as no log, and no connection.
    /// A reader that must not write may then read the file alone (`immutable`), as where there is no log.
    /// The index, not the log's header alone: a connection that has read but not yet written leaves a kept
    /// log cleared, and its checkpoint would then rewrite the file under an `immutable` reader (a process
    /// test caught that: "database disk image is malformed").
    static func logMayBeInUse(beside path: String) -> Bool {
        // Beside the file itself: SQLite resolves a link to the store and keeps its log beside the target.
        var path = path
        if let resolved = realpath(path, nil) {
            path = String(cString: resolved)
            free(resolved)
        }
        if access(path + "-shm", F_OK) == 0 || errno != ENOENT { return true }
        // Not blocking, not following a link: a FIFO named like the log would hang an open for reading.
        let fd = open(path + "-wal", O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return errno != ENOENT }  // unreadable or odd: someone's, so maybe in use
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return true }
        var magic: [UInt8] = [0, 0, 0, 0]
        guard read(fd, &magic, 4) == 4 else { return false }
        return magic[0] == 0x37 && magic[1] == 0x7F && magic[2] == 0x06 && (magic[3] == 0x82 || magic[3] == 0x83)
    }
}
