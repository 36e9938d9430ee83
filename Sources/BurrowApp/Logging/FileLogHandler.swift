import Foundation
import Logging
import Outline
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
        sink.write("\(Self.now()) \(event.level) \(label): \(event.message)\(meta)\n")
    }

    /// This moment in this machine's time zone, as `timestamp` writes it.
    static func now() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        // The zone's offset at the second written (the rounded one), so a stamp at a change of daylight
        // saving time is the formatter's.
        let second = roundedMilliseconds(seconds: Int(now.tv_sec), nanoseconds: Int(now.tv_nsec)).second
        return timestamp(seconds: Int(now.tv_sec), nanoseconds: Int(now.tv_nsec), utcOffset: Outline.localOffset(at: second))
    }

    /// The instant to the nearest millisecond, as the formatter rounds (999.6 ms is the next second's .000),
    /// as a second and its milliseconds (0–999, before 1970 too).
    static func roundedMilliseconds(seconds: Int, nanoseconds: Int) -> (second: Int, millisecond: Int) {
        let total = seconds * 1000 + (nanoseconds + 500_000) / 1_000_000
        let (second, millisecond) = total.quotientAndRemainder(dividingBy: 1000)
        return millisecond < 0 ? (second - 1, millisecond + 1000) : (second, millisecond)
    }

    /// `2026-11-30T09:15:00.123Z`, or `…+05:45` east of UTC: what `ISO8601DateFormatter` writes with
    /// `.withInternetDateTime` and `.withFractionalSeconds`, made by hand because the formatter loads ICU's
    /// calendars and time zones on first use, a twentieth of the outliner's start (the line "started on …").
    static func timestamp(seconds: Int, nanoseconds: Int, utcOffset: Int) -> String {
        let (second, millisecond) = roundedMilliseconds(seconds: seconds, nanoseconds: nanoseconds)
        var shifted = time_t(second + utcOffset)
        var parts = tm()
        gmtime_r(&shifted, &parts)
        func padded(_ n: Int, _ width: Int) -> String {
            let digits = String(n)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        var out = padded(Int(parts.tm_year) + 1900, 4) + "-" + padded(Int(parts.tm_mon) + 1, 2) + "-" + padded(Int(parts.tm_mday), 2)
        out += "T" + padded(Int(parts.tm_hour), 2) + ":" + padded(Int(parts.tm_min), 2) + ":" + padded(Int(parts.tm_sec), 2)
        out += "." + padded(millisecond, 3)
        guard utcOffset != 0 else { return out + "Z" }
        let distance = abs(utcOffset)
        return out + (utcOffset < 0 ? "-" : "+") + padded(distance / 3600, 2) + ":" + padded(distance % 3600 / 60, 2)
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
