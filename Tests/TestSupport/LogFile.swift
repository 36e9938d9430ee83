import Foundation

/// What a store's write-ahead log beside it holds, as SQLite would read it.
public enum LogFile {
    /// True when the log beside `db` holds nothing SQLite would read: no file, an empty one, or one whose
    /// 32-byte header is cleared (`Store.keepLogFilesWhenClosing()` clears it instead of deleting the file).
    public static func holdsNothing(besides db: String) -> Bool {
        let fd = open(db + "-wal", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return errno == ENOENT }
        defer { close(fd) }
        var header = [UInt8](repeating: 0xFF, count: 32)
        let n = read(fd, &header, 32)
        return n == 0 || (n == 32 && header.allSatisfy { $0 == 0 })
    }
}
