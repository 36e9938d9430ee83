import Foundation

/// A throwaway PostgreSQL cluster for the tests: `initdb` in a temporary folder, a free port on loopback,
/// password logins over TCP, run as `nobody` when the tests run as root (the server refuses root). A watchdog
/// process stops it and removes its folder once the test process is gone, however it ended, so `swift test`
/// leaves nothing running.
///
/// ```swift
/// let cluster = try PostgresCluster.shared()
/// let url = try cluster.newDatabase()     // postgres://burrow_admin:…@127.0.0.1:PORT/test_1?sslmode=disable
/// ```
public final class PostgresCluster: @unchecked Sendable {
    // @unchecked: `running` and `databases` are touched only under `lock`; the rest is constant.
    public let directory: String
    public let port: Int
    /// The superuser `initdb` made, and its password.
    public let admin = "burrow_admin"
    public let adminPassword: String
    private let bin: String
    private let lock = NSLock()
    private var databases = 0
    private var running = true

    /// The cluster every test shares, started by the first test that asks.
    public static func shared() throws -> PostgresCluster {
        sharedLock.lock()
        defer { sharedLock.unlock() }
        if let sharedCluster { return sharedCluster }
        let c = try PostgresCluster()
        sharedCluster = c
        return c
    }

    private static let sharedLock = NSLock()
    nonisolated(unsafe) private static var sharedCluster: PostgresCluster?

    /// The folder of the server's programs (`initdb`, `pg_ctl`), newest version first.
    static func serverPrograms() throws -> String {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted(by: >)
        for v in versions where FileManager.default.isExecutableFile(atPath: "\(root)/\(v)/bin/initdb") { return "\(root)/\(v)/bin" }
        throw ClusterError("no PostgreSQL server under \(root) (apt-get install postgresql)")
    }

    /// A new cluster of its own (for a test that stops and starts its server).
    public init() throws {
        bin = try Self.serverPrograms()
        directory = TemporaryDirectory.root.path + "/burrow-pg-\(getpid())-\(UUID().uuidString.prefix(8))"
        adminPassword = UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: true)
        try adminPassword.write(toFile: directory + "/pw", atomically: false, encoding: .utf8)
        if geteuid() == 0 {
            for path in [directory, directory + "/data", directory + "/pw"] { chown(path, 65534, 65534) }
        }
        try Self.run(
            bin: bin, directory: directory, "\(bin)/initdb", "-D", directory + "/data", "-U", admin, "--pwfile=\(directory)/pw",
            "--auth-host=scram-sha-256",
            "--auth-local=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
        try? FileManager.default.removeItem(atPath: directory + "/pw")
        var started: Int?
        var lastError: (any Error)?
        for _ in 0..<5 where started == nil {
            let candidate = try Self.freePort()
            do {
                try Self.start(bin: bin, directory: directory, port: candidate)
                started = candidate
            } catch {
                lastError = error
            }
        }
        guard let started else { throw lastError ?? ClusterError("the server did not start") }
        port = started
        watch()
    }

    /// A new, empty database; its URL, with the superuser's password.
    public func newDatabase() throws -> String {
        lock.lock()
        databases += 1
        let name = "test_\(databases)"
        lock.unlock()
        try sql("CREATE DATABASE \(name)", database: "postgres")
        return url(database: name)
    }

    public func url(database: String, user: String? = nil, password: String? = nil) -> String {
        "postgres://\(user ?? admin):\(password ?? adminPassword)@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    /// Runs `statement` with `psql` as the superuser; its output.
    @discardableResult
    public func sql(_ statement: String, database: String) throws -> String {
        try Self.capture(
            "/usr/bin/psql",
            ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", String(port), "-U", admin, "-d", database, "-c", statement],
            environment: ["PGPASSWORD": adminPassword, "PGSSLMODE": "disable"])
    }

    /// Stops the server at once (as a crash would), keeping its data.
    public func stop() throws {
        try run("\(bin)/pg_ctl", "-D", directory + "/data", "-m", "immediate", "-w", "stop")
        lock.lock()
        running = false
        lock.unlock()
    }

    /// Starts it again on the same port.
    public func restart() throws {
        try Self.start(bin: bin, directory: directory, port: port)
        lock.lock()
        running = true
        lock.unlock()
    }

    private static func start(bin: String, directory: String, port: Int) throws {
        try run(
            bin: bin, directory: directory, "\(bin)/pg_ctl", "-D", directory + "/data", "-l", directory + "/server.log", "-w", "-t", "60",
            "-o", "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=100",
            "start")
    }

    /// Stops the server and removes the folder when this process is gone (checked each second: every cluster a
    /// test run starts keeps its watch to the run's end, and at five checks a second their `sleep`s alone were
    /// thirty programs started a second).
    private func watch() {
        let asUser = geteuid() == 0 ? "/usr/sbin/runuser -u nobody -- " : ""
        let script = """
            while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done
            \(asUser)\(bin)/pg_ctl -D \(directory)/data -m immediate -w stop >/dev/null 2>&1
            rm -rf \(directory)
            """
        _ = try? Spawn.start("/usr/bin/setsid", ["/bin/sh", "-c", script])
    }

    private func run(_ arguments: String...) throws { try Self.run(bin: bin, directory: directory, arguments) }

    private static func run(bin: String, directory: String, _ arguments: String...) throws { try run(bin: bin, directory: directory, arguments) }

    /// Runs a server program, as `nobody` when this process is root.
    private static func run(bin: String, directory: String, _ arguments: [String]) throws {
        if geteuid() == 0 {
            _ = try capture("/usr/sbin/runuser", ["-u", "nobody", "--"] + arguments, environment: [:], directory: directory)
        } else {
            _ = try capture(arguments[0], Array(arguments.dropFirst()), environment: [:], directory: directory)
        }
    }

    /// Runs `program` to its end (`Spawn`: Foundation's `Process` was seen never to reap a child here, a test
    /// waiting forever); its output, or an error with it when it fails.
    private static func capture(_ program: String, _ arguments: [String], environment: [String: String], directory: String? = nil) throws -> String {
        // Output to a file, not a pipe: the server `pg_ctl` starts would inherit a pipe and keep it open.
        let file = TemporaryDirectory.root.path + "/burrow-pg-out-\(UUID().uuidString)"
        defer { unlink(file) }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        let argv = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\" </dev/null >\"$OUT\" 2>&1", directory ?? "/", program] + arguments
        env["OUT"] = file
        // Spawn: nothing else this process has open (another test's pipe) reaches the server.
        let child: Child
        do {
            child = try Spawn.start(argv[0], Array(argv.dropFirst()), environment: env)
        } catch {
            throw ClusterError("cannot start \(program): \(error)")
        }
        child.waitUntilExit()
        let text = readWhole(file)
        guard child.terminationReason == .exit, child.terminationStatus == 0 else {
            throw ClusterError("\((program as NSString).lastPathComponent) \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text
    }

    /// The file's text, "" when it cannot be read. Not `String(contentsOfFile:)`: Foundation's reader leaks its
    /// 4 KiB buffer when the file is empty (LeakSanitizer reported it once per quiet `psql`).
    private static func readWhole(_ path: String) -> String {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A port nothing listens on now (the kernel's pick for port 0).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClusterError("no socket") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw ClusterError("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    public struct ClusterError: Error, CustomStringConvertible {
        public let description: String
        init(_ d: String) { description = d }
    }
}
