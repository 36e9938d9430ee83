import Foundation
import Logging
import Synchronization

/// A swift-log handler that appends lines to a file: the full-screen program must never write to the
/// terminal ncurses owns, so its log goes to `$XDG_STATE_HOME/burrow/burrow.log`.
///
/// For example: `LoggingSystem.bootstrap { FileLogHandler(label: $0, file: handle) }`.
public struct FileLogHandler: LogHandler {
    private let label: String
    private let sink: Sink
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]

    /// Where lines go, shared by every logger of the process.
    public final class Sink: Sendable {
        private let handle: Mutex<FileHandle>

        public init(handle: FileHandle) {
            self.handle = Mutex(handle)
        }

        /// Opens (creating folders and the file) `path` for appending.
        public convenience init(path: String) throws {
            let url = URL(fileURLWithPath: path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            if !FileManager.default.fileExists(atPath: path) {
                _ = FileManager.default.createFile(atPath: path, contents: nil)
            }
            let handle = try FileHandle(forWritingTo: url)
            handle.seekToEndOfFile()
            self.init(handle: handle)
        }

        func write(_ line: String) {
            // A log line that cannot be written has nowhere else to go (the terminal belongs to the screen).
            handle.withLock { h in try? h.write(contentsOf: Data(line.utf8)) }
        }
    }

    public init(label: String, sink: Sink) {
        self.label = label
        self.sink = sink
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var all = metadata
        if let extra = event.metadata { all.merge(extra) { $1 } }
        let meta = all.isEmpty ? "" : " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let time = ISO8601DateFormatter.string(from: Date(), timeZone: .current, formatOptions: [.withInternetDateTime, .withFractionalSeconds])
        sink.write("\(time) \(event.level) \(label): \(event.message)\(meta)\n")
    }

    /// `$XDG_STATE_HOME/burrow/burrow.log` (`~/.local/state/burrow/burrow.log`), or `$BURROW_LOG`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit = environment["BURROW_LOG"], !explicit.isEmpty { return explicit }
        let base: String
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        }
        return base + "/burrow/burrow.log"
    }
}
