import Foundation
import ObjectGraph
import TerminalKit

/// Where commands write: the real stdout and stderr, or buffers in tests.
///
/// Text written to a terminal is made safe first, as `ls` does: a stored title holding `ESC ]0;…BEL` is shown as
/// `^[]0;…^G` instead of retitling the window (`Sanitizer.printable`; line feeds and tabs stay). To a file or a
/// pipe the text is written exactly, so `burrow export > file` round-trips.
public struct Console: Sendable {
    /// Receives standard output's text as it is to be written.
    public var writeOut: @Sendable (String) -> Void
    /// Receives standard error's text as it is to be written.
    public var writeErr: @Sendable (String) -> Void
    /// Reads standard input whole (for `-` arguments).
    public var input: @Sendable () -> Data
    /// True when stdout is a terminal (its text is then sanitised).
    public var outIsTerminal: Bool
    /// True when stderr is a terminal (its text is then sanitised, and progress bars are drawn only then).
    public var errIsTerminal: Bool
    /// The environment variables commands read (`BURROW_DB`, `XDG_CONFIG_HOME`, `HOME`, `NO_COLOR`).
    public var environment: [String: String]
    /// Seconds on a clock that only goes forward: when a progress bar may be drawn (tests give their own).
    public var now: @Sendable () -> Double
    /// Writes out what `writeOut` has gathered (the standard console gathers standard output; see
    /// `BufferedOutput`); `BurrowMain.run` calls it as a command ends.
    public var flush: @Sendable () -> Void

    /// A console writing to `out` and `err`, sanitising for the ones that are terminals.
    public init(
        out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
        input: @escaping @Sendable () -> Data, outIsTerminal: Bool = false, errIsTerminal: Bool = false,
        environment: [String: String] = Console.processEnvironment(),
        now: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime },
        flush: @escaping @Sendable () -> Void = {}
    ) {
        self.writeOut = out
        self.writeErr = err
        self.input = input
        self.outIsTerminal = outIsTerminal
        self.errIsTerminal = errIsTerminal
        self.environment = environment
        self.now = now
        self.flush = flush
    }

    public static let standard = Console(
        out: { s in BufferedOutput.standardOutput.append(s) },
        err: { s in
            BufferedOutput.standardOutput.flush()
            FileHandle.standardError.write(bytes(of: s))
        },
        input: {
            BufferedOutput.standardOutput.flush()
            return FileHandle.standardInput.readDataToEndOfFile()
        },
        outIsTerminal: isatty(1) == 1, errIsTerminal: isatty(2) == 1,
        flush: { BufferedOutput.standardOutput.flush() })

    @TaskLocal public static var current = Console.standard

    /// The process's environment, read from `environ` byte by byte: `ProcessInfo`'s splits every entry by
    /// characters (0.4 million instructions, in a command that reads two variables). A name given twice has
    /// its first value, as `getenv` gives it; text that is not UTF-8 is repaired, as ProcessInfo repairs it.
    public static func processEnvironment() -> [String: String] {
        // Never null in a process that did not call `clearenv`, which nothing here does.
        environment(from: environ)
    }

    /// The variables of a null-terminated array of `NAME=value` entries, as `processEnvironment` reads them.
    static func environment(from entries: UnsafePointer<UnsafeMutablePointer<CChar>?>) -> [String: String] {
        var variables: [String: String] = [:]
        var entry = entries
        while let text = entry.pointee {
            let length = strlen(text)
            text.withMemoryRebound(to: UInt8.self, capacity: length) { start in
                let bytes = UnsafeBufferPointer(start: start, count: length)
                guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { return }
                let name = String(decoding: bytes[..<equals], as: UTF8.self)
                if variables[name] == nil { variables[name] = String(decoding: bytes[(equals + 1)...], as: UTF8.self) }
            }
            entry += 1
        }
        return variables
    }

    /// `text`'s UTF-8 bytes, copied from its buffer: `Data(text.utf8)` casts the view to a protocol at run
    /// time, which scans every conformance in the binary the first time, in every command that prints.
    private static func bytes(of text: String) -> Data {
        var text = text
        return text.withUTF8 { Data(buffer: $0) }
    }

    /// Writes `text` to standard output (sanitised on a terminal).
    public func out(_ text: String) { writeOut(outIsTerminal ? Sanitizer.printable(text) : text) }

    /// Writes `text` to standard error (sanitised on a terminal).
    public func err(_ text: String) { writeErr(errIsTerminal ? Sanitizer.printable(text) : text) }

    /// Writes a control sequence of our own to standard error, only when it is a terminal (the progress bar's
    /// carriage return and line erase).
    func errControl(_ sequence: String) {
        if errIsTerminal { writeErr(sequence) }
    }
}

func say(_ s: String) { Console.current.out(s + "\n") }
