import Foundation
import Synchronization

/// A fresh, empty folder under the tests' temporary directory (``root``), removed with everything in it when the
/// value is released. Each test making its own keeps tests that run in parallel out of each other's files.
///
/// ```swift
/// let folder = TemporaryDirectory()
/// let store = try Store(path: folder.path(), model: model)
/// ```
///
/// Keep the value alive as long as the files are used (hold it in a `let` used at the end, or in the
/// object that uses the files): once released, the folder is gone.
public final class TemporaryDirectory: Sendable {
    public let url: URL

    /// `prefix` names the folder after its test, so a leftover (a crash) says where it came from.
    /// `forTheProcess`: for a folder held in a `static let` (never released), removed when the process exits.
    public init(_ prefix: String = "burrow-test", forTheProcess: Bool = false) {
        url = Self.root.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            fatalError("cannot create a temporary directory at \(url.path): \(error)")
        }
        if forTheProcess { Self.removeAtExit(url) }
    }

    private static let atExit = Mutex<[URL]?>(nil)

    /// Folders in memory (``root``) that nobody removes would hold memory until the machine restarts.
    private static func removeAtExit(_ url: URL) {
        atExit.withLock { urls in
            if urls == nil {
                atexit {
                    for url in TemporaryDirectory.atExit.withLock({ $0 ?? [] }) { try? FileManager.default.removeItem(at: url) }
                }
            }
            urls = (urls ?? []) + [url]
        }
    }

    /// The path of `name` inside the folder (a store file by default); nothing is created.
    public func path(_ name: String = "store.sqlite") -> String {
        url.appendingPathComponent(name).path
    }

    /// A copy of the store at `store` (its write-ahead log too, when there is one) as `name` in this folder;
    /// its path. For tests that start many cases from one state made once.
    public func copy(ofStore store: String, as name: String) throws -> String {
        let copy = path(name)
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: store + suffix) {
            try FileManager.default.copyItem(atPath: store + suffix, toPath: copy + suffix)
        }
        return copy
    }

    /// Where the tests' folders go: `BURROW_TEST_TMPDIR` when set; else `/dev/shm` when it is a writable
    /// memory file system with 2 GiB free; else the system's temporary directory. In memory, because SQLite's
    /// and PostgreSQL's syncs to a disk made the suite wait on it: the sync simulation's 200 seeds took 25–62 s
    /// on the disk (ext4 on a virtual disk) and 20–30 s in memory, on the same 35 s of processor time. No test
    /// needs the disk: a killed process loses nothing the kernel holds, and no test cuts the power.
    public static let root: URL = {
        if let chosen = ProcessInfo.processInfo.environment["BURROW_TEST_TMPDIR"], !chosen.isEmpty {
            return URL(fileURLWithPath: chosen, isDirectory: true)
        }
        let mounts = (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? ""
        let inMemory = mounts.split(separator: "\n").contains { $0.split(separator: " ").prefix(3).dropFirst().elementsEqual(["/dev/shm", "tmpfs"]) }
        var fs = statvfs()
        if inMemory, access("/dev/shm", W_OK) == 0, statvfs("/dev/shm", &fs) == 0, UInt64(fs.f_bavail) * UInt64(fs.f_frsize) >= 2 << 30 {
            return URL(fileURLWithPath: "/dev/shm", isDirectory: true)
        }
        return FileManager.default.temporaryDirectory
    }()

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
