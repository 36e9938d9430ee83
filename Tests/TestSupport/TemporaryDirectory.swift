import Foundation

/// A fresh, empty folder under the system's temporary directory, removed with everything in it when the
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
    public init(_ prefix: String = "burrow-test") {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            fatalError("cannot create a temporary directory at \(url.path): \(error)")
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

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
