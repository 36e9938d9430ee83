#if canImport(Glibc)
    import Glibc
#endif

/// Wakes a run loop when another process may have committed to a store: a file descriptor that becomes
/// readable when the store's files change (Linux inotify on their folder), so the loop can wait on it with its
/// input and look for commits (`Store.poll`) at once instead of on a timer. What a wake-up means is still
/// decided by `poll` (`PRAGMA data_version`): this process's own writes and unrelated files wake it too, and
/// cost one cheap check.
///
/// ```swift
/// if let watcher = store.makeWatcher() {
///     // wait on watcher.fileDescriptor with the terminal's input; then:
///     if watcher.drain() { try store.poll() }
/// }
/// ```
public final class StoreWatcher {
    /// Readable when something changed since the last `drain`.
    public let fileDescriptor: Int32
    /// The names in the folder that belong to the store: the file, its write-ahead log, its rollback journal.
    private let names: Set<String>

    /// Watches the folder of the database at `path`; nil where notifications are not available (then the
    /// caller keeps polling on a timer). For a watcher of its own on another thread than the store's.
    public init?(path: String) {
        #if os(Linux)
            let slash = path.lastIndex(of: "/")
            let folder = slash.map { String(path[..<$0]) } ?? "."
            let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
            let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard fd >= 0 else { return nil }
            let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO | IN_DELETE)
            guard inotify_add_watch(fd, folder.isEmpty ? "/" : folder, mask) >= 0 else {
                close(fd)
                return nil
            }
            fileDescriptor = fd
            names = [name, name + "-wal", name + "-journal"]
        #else
            return nil
        #endif
    }

    deinit {
        close(fileDescriptor)
    }

    /// Reads every notification waiting; true when one was about the store's files.
    public func drain() -> Bool {
        #if os(Linux)
            var relevant = false
            // On the stack and not cleared: the outliner drains after every wait that saw the descriptor ready.
            withUnsafeTemporaryAllocation(byteCount: 4096, alignment: 8) { buffer in
                while true {
                    let n = read(fileDescriptor, buffer.baseAddress, buffer.count)
                    guard n > 0 else { break }
                    var offset = 0
                    // Each event: wd, mask, cookie, len (4 × 4 bytes), then `len` bytes of NUL-padded name.
                    while offset + 16 <= n {
                        let length = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                        let start = offset + 16
                        let end = min(n, start + length)
                        let nameBytes = UnsafeRawBufferPointer(rebasing: buffer[start..<end]).prefix { $0 != 0 }
                        if names.contains(String(decoding: nameBytes, as: UTF8.self)) { relevant = true }
                        offset = start + length
                    }
                }
            }
            return relevant
        #else
            return false
        #endif
    }
}
