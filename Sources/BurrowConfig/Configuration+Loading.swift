import Foundation

extension Configuration {
    /// The largest config file read: a real one is a few hundred bytes, and this keeps a wrong path (a log, an
    /// image) from being read whole.
    public static let maximumFileSize = 1 << 20

    /// The configuration in the file at `path`: defaults with no problem when there is no file, defaults and
    /// one problem when it cannot be used at all (a folder, unreadable, too large, not UTF-8 text), else as
    /// `parse` reads it. Never throws and never blocks on a FIFO or device.
    public static func load(from path: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> Configuration {
        switch readFile(path) {
        case .missing: return Configuration()
        case .failed(let problem):
            var config = Configuration()
            config.problems = [problem]
            return config
        case .text(let text, let mode):
            var config = parse(text, environment: environment)
            // A password in a file others can read is refused, as libpq refuses such a ~/.pgpass.
            if config.syncURL != nil, mode & 0o077 != 0 {
                config.syncURL = nil
                config.problems.append(
                    ConfigProblem(
                        "sync-url is not used: others may read this file (mode \(String(mode & 0o777, radix: 8))); chmod 600 it",
                        at: config.syncURLPosition ?? SourcePosition(line: 1, column: 1)))
                config.problems.sort { ($0.position ?? .init(line: 0, column: 0)) < ($1.position ?? .init(line: 0, column: 0)) }
            }
            return config
        }
    }

    private enum FileContents {
        case missing
        case failed(ConfigProblem)
        case text(String, mode: mode_t)
    }

    private static func readFile(_ path: String) -> FileContents {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; the type is then checked on what was opened.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT {
                // A link to nowhere is a mistake worth showing, not "no file".
                if (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil {
                    return .failed(ConfigProblem("the file is a link to nowhere"))
                }
                return .missing
            }
            return .failed(ConfigProblem("cannot be read: \(String(cString: strerror(code)))"))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            return .failed(ConfigProblem("cannot be read: \(String(cString: strerror(errno)))"))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .failed(ConfigProblem("is a folder, not a file"))
        default: return .failed(ConfigProblem("is not a regular file"))
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while data.count <= maximumFileSize {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failed(ConfigProblem("cannot be read: \(String(cString: strerror(errno)))"))
            }
            if n == 0 { break }
            data.append(contentsOf: buffer[0..<n])
        }
        guard data.count <= maximumFileSize else {
            return .failed(ConfigProblem("is larger than \(maximumFileSize / (1 << 20)) MiB; a config file is a few lines"))
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            return .failed(ConfigProblem("is not UTF-8 text", at: firstInvalidUTF8(in: data)))
        }
        return .text(text, mode: info.st_mode)
    }

    /// Where the first byte that is not UTF-8 is, counted as toml++ counts (Unicode scalars).
    private static func firstInvalidUTF8(in data: Data) -> SourcePosition {
        var line = 1, column = 1
        var iterator = data.makeIterator()
        var decoder = UTF8()
        while case .scalarValue(let scalar) = decoder.decode(&iterator) {
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return SourcePosition(line: line, column: column)
    }
}
