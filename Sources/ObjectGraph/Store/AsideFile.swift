import Foundation

/// The hidden file beside a store's path that a new store is written in before it takes that name
/// (`Store.makeNew`): `.NAME.new` in the same folder, locked (`flock`) while a process writes it, so
/// that two processes never write the same one and a file left by a process that died is known as such.
final class AsideFile {
    /// The hidden file's path.
    let path: String
    /// The path the store takes when it is complete.
    let target: String
    /// Open from the start to the end: it holds the lock. Closed only after SQLite has closed its own
    /// descriptors of the file (closing one drops the process's SQLite locks on it).
    private var descriptor: Int32

    /// Takes the aside file for `target`, emptied (a process that died writing it left it). Nil when another
    /// process is writing it now, or the folder refuses a file (the ordinary way then says why).
    static func take(for target: String) -> AsideFile? {
        let path = path(for: target)
        // Twice at most: a name that was another name of a file (below) is removed and made again.
        for attempt in 0..<2 {
            // Not through a link someone left there: the file is made, or it is the one a process left.
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (attempt == 0 ? 0 : O_EXCL), 0o644)
            guard descriptor >= 0 else { return nil }
            var status = stat()
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0, fstat(descriptor, &status) == 0 else {
                close(descriptor)
                return nil
            }
            if status.st_nlink != 1 {
                // Another name of a file: a store, where a process was killed between the link and the unlink
                // that name a store where renaming cannot refuse to replace. Only this name goes.
                unlink(path)
                close(descriptor)
                continue
            }
            guard ftruncate(descriptor, 0) == 0 else {
                close(descriptor)
                return nil
            }
            // A journal beside a dead process's file belongs to nothing now.
            for suffix in ["-journal", "-wal", "-shm"] { unlink(path + suffix) }
            return AsideFile(path: path, target: target, descriptor: descriptor)
        }
        return nil
    }

    private init(path: String, target: String, descriptor: Int32) {
        self.path = path
        self.target = target
        self.descriptor = descriptor
    }

    /// `.NAME.new` beside `target`.
    static func path(for target: String) -> String {
        let (folder, name) = split(target)
        return (folder == "/" ? "" : folder) + "/." + name + ".new"
    }

    /// The folder `target` is in: `.` for a bare name, `/` for one at the root.
    static func folder(of target: String) -> String { split(target).folder }

    /// `target` split at its last slash. By hand: Foundation's `URL` (its `path` builds a set of allowed
    /// bytes on first use) was 6.5 % of a `burrow add`'s instructions, for a name every store opened to
    /// write asks for.
    private static func split(_ target: String) -> (folder: String, name: String) {
        guard let slash = target.lastIndex(of: "/") else { return (".", target) }
        let folder = target[..<slash]
        return (folder.isEmpty ? "/" : String(folder), String(target[target.index(after: slash)...]))
    }

    /// Removes the aside file of `target` that a process left when it died (a killed import), unless one is
    /// writing it now: for every store opened to write at `target`, so that it is not left for good.
    static func removeLeftOver(for target: String) {
        let path = path(for: target)
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return }
        // Another name of a file (see `take`), perhaps of the store this process has open: the name goes, and
        // no descriptor of it is opened (closing one would drop this process's locks on that store).
        if status.st_nlink > 1 {
            unlink(path)
            return
        }
        let descriptor = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return }
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path + suffix) }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Removes the file: nothing of it is kept.
    func discard() {
        unlink(path)
        for suffix in ["-journal", "-wal", "-shm"] { unlink(path + suffix) }
        close(descriptor)
        descriptor = -1
    }

    /// Gives the complete file `target`'s name, never over a file that has it: false when one does (made
    /// while this one was written) or the file system can do neither an exclusive rename nor a link; the file
    /// is removed then. Its bytes reach the disk before the name, and the name before this returns.
    func publish() throws(StoreError) -> Bool {
        guard fsync(descriptor) == 0 else {
            let reason = String(cString: strerror(errno))
            discard()
            throw StoreError(.storage, "cannot save the new store: \(reason)", path: target)
        }
        var named = AsideFile.renameWithoutReplacing(path, target)
        if named == nil {
            // No exclusive rename here: a link is just as exclusive, where the file system has links.
            named = link(path, target) == 0
            if named == true { unlink(path) }
        }
        guard named == true else {
            discard()
            return false
        }
        // The new name on disk too: a power cut after the command said it was done keeps the store.
        let folder = open(AsideFile.folder(of: target), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
        close(descriptor)
        descriptor = -1
        return true
    }

    private typealias Renameat2 = @convention(c) (Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UInt32) -> Int32

    /// `renameat2(…, RENAME_NOREPLACE)`, which Swift's Glibc module does not declare: true when renamed,
    /// false when `to` exists (or another error), nil when this system or file system cannot do it.
    static func renameWithoutReplacing(_ from: String, _ to: String) -> Bool? {
        guard let symbol = dlsym(nil, "renameat2") else { return nil }
        // Safe: the symbol is glibc's `int renameat2(int, const char *, int, const char *, unsigned int)`
        // (since 2.28), which `Renameat2` spells exactly; nothing else answers to that name in the process.
        // `MakeNewStoreTests.renamingNeverReplaces` calls it: a wrong type would misread the flag and replace.
        let rename = unsafeBitCast(symbol, to: Renameat2.self)
        let noReplace: UInt32 = 1
        if rename(AT_FDCWD, from, AT_FDCWD, to, noReplace) == 0 { return true }
        return errno == EINVAL || errno == ENOSYS || errno == ENOTSUP ? nil : false
    }
}
