import Foundation

/// Where a shared outline's PostgreSQL server is, read from a `postgres://` URL as libpq reads one: user,
/// password, host, port, database and `sslmode`; a missing password comes from `PGPASSWORD`, then
/// `~/.pgpass` (used only when no one but its owner can read it, as libpq does).
///
/// ```swift
/// let address = try ServerAddress("postgres://ann@db.example.org/outlines?sslmode=verify-full")
/// address.port        // 5432
/// ```
public struct ServerAddress: Equatable, Sendable, CustomStringConvertible {
    /// How the connection uses TLS, as libpq's `sslmode` says.
    public enum TLSMode: String, Sendable, CaseIterable {
        /// Never.
        case disable
        /// If the server offers it (libpq's default), without checking its certificate.
        case prefer
        /// Always, without checking the certificate.
        case require
        /// Always, checking the certificate's chain but not its name.
        case verifyCA = "verify-ca"
        /// Always, checking the chain and that it names the host.
        case verifyFull = "verify-full"
    }

    public var user: String
    /// Never printed: ``description`` leaves it out.
    public var password: String?
    /// A host name or address; a path (starting with `/`) is the folder of the server's Unix socket.
    public var host: String
    public var port: Int
    public var database: String
    public var tls: TLSMode

    /// The URL without its password, for messages and the status line.
    public var description: String {
        let h = host.hasPrefix("/") ? "" : (host.contains(":") ? "[\(host)]" : host)
        var s = "postgres://\(user)@\(h):\(port)/\(database)"
        var query: [String] = []
        if host.hasPrefix("/") { query.append("host=\(host)") }
        if tls != .prefer { query.append("sslmode=\(tls.rawValue)") }
        if !query.isEmpty { s += "?" + query.joined(separator: "&") }
        return s
    }

    /// Reads `url`. `environment` and `home` stand for the process's (tests give their own).
    public init(_ url: String, environment: [String: String] = ProcessInfo.processInfo.environment, home: String? = nil) throws(ServerError) {
        guard let c = URLComponents(string: url), let scheme = c.scheme, ["postgres", "postgresql"].contains(scheme.lowercased()) else {
            throw ServerError(.badAddress, "“\(Self.withoutPassword(url))” is not a postgres:// URL")
        }
        var query: [String: String] = [:]
        for item in c.queryItems ?? [] {
            guard let value = item.value else { throw ServerError(.badAddress, "the URL's “\(item.name)” has no value") }
            query[item.name] = value
        }
        for name in query.keys where !["sslmode", "host", "port", "user", "password", "dbname"].contains(name) {
            throw ServerError(.badAddress, "the URL's “\(name)” is not a setting Burrow knows (sslmode, host, port, user, password, dbname)")
        }
        let tlsName = query["sslmode"] ?? environment["PGSSLMODE"] ?? "prefer"
        guard let tls = TLSMode(rawValue: tlsName) else {
            throw ServerError(.badAddress, "sslmode “\(tlsName)” is not one of disable, prefer, require, verify-ca, verify-full")
        }
        self.tls = tls
        host = query["host"] ?? c.host.flatMap { $0.isEmpty ? nil : $0 } ?? environment["PGHOST"] ?? "localhost"
        if let p = query["port"] ?? c.port.map(String.init) ?? environment["PGPORT"] {
            guard let n = Int(p), (1...65535).contains(n) else { throw ServerError(.badAddress, "port “\(p)” is not a number from 1 to 65535") }
            port = n
        } else {
            port = 5432
        }
        user = query["user"] ?? c.user.flatMap { $0.isEmpty ? nil : $0 } ?? environment["PGUSER"] ?? Self.loginName()
        let path = c.path.hasPrefix("/") ? String(c.path.dropFirst()) : c.path
        database = query["dbname"] ?? (path.isEmpty ? nil : path) ?? environment["PGDATABASE"] ?? user
        password = query["password"] ?? c.password ?? environment["PGPASSWORD"]
        if password == nil {
            let file = environment["PGPASSFILE"] ?? ((home ?? environment["HOME"] ?? NSHomeDirectory()) + "/.pgpass")
            password = Self.passwordFile(file, host: host, port: port, database: database, user: user)
        }
    }

    /// `url` with any password replaced by `***`, for an error message about a URL that did not parse.
    static func withoutPassword(_ url: String) -> String {
        guard let at = url.firstIndex(of: "@"), let scheme = url.range(of: "://"), scheme.upperBound < at else { return url }
        let userInfo = url[scheme.upperBound..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return url }
        return String(url[..<url.index(after: colon)]) + "***" + String(url[at...])
    }

    private static func loginName() -> String {
        if let p = getpwuid(geteuid()), let name = p.pointee.pw_name { return String(cString: name) }
        return "postgres"
    }

    /// The password `.pgpass` gives the first line matching (`host:port:database:user:password`, `*` for
    /// any, `\:` and `\\` escaped), as libpq reads it; none when the file is missing, not a regular file,
    /// or readable by others than its owner.
    static func passwordFile(_ path: String, host: String, port: Int, database: String, user: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_mode & 0o077 == 0,
            let text = try? String(contentsOfFile: path, encoding: .utf8)
        else { return nil }
        // libpq matches a socket folder, and the default socket, as "localhost".
        let hostName = host.hasPrefix("/") ? "localhost" : host
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("#") { continue }
            var fields: [String] = [], field = "", escaped = false
            for ch in line.trimmingCharacters(in: CharacterSet(charactersIn: "\r")) {
                if escaped {
                    field.append(ch)
                    escaped = false
                } else if ch == "\\" {
                    escaped = true
                } else if ch == ":" && fields.count < 4 {
                    fields.append(field)
                    field = ""
                } else {
                    field.append(ch)
                }
            }
            fields.append(field)
            guard fields.count == 5 else { continue }
            let wanted = [hostName, String(port), database, user]
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }
}
