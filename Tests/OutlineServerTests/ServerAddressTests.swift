import Foundation
import TestSupport
import Testing

@testable import OutlineServer

/// `postgres://` URLs read as libpq reads them, the password found where libpq finds it, and never shown.
@Suite struct ServerAddressTests {
    static let none: [String: String] = [:]

    @Test func aFullURL() throws {
        let a = try ServerAddress(
            "postgres://ann:s3cret@db.example.org:6543/outlines?sslmode=verify-full", environment: Self.none, home: "/nonexistent")
        #expect(a.user == "ann")
        #expect(a.password == "s3cret")
        #expect(a.host == "db.example.org")
        #expect(a.port == 6543)
        #expect(a.database == "outlines")
        #expect(a.tls == .verifyFull)
        #expect(a.description == "postgres://ann@db.example.org:6543/outlines?sslmode=verify-full")
        #expect(!"\(a)".contains("s3cret"))
    }

    @Test func defaultsComeFromTheEnvironmentThenLibpqs() throws {
        let env = ["PGUSER": "bob", "PGHOST": "h", "PGPORT": "7000", "PGDATABASE": "d", "PGSSLMODE": "require", "PGPASSWORD": "pw"]
        let a = try ServerAddress("postgresql://", environment: env, home: "/nonexistent")
        #expect([a.user, a.host, a.database, a.password] == ["bob", "h", "d", "pw"])
        #expect(a.port == 7000)
        #expect(a.tls == .require)
        let b = try ServerAddress("postgres://carol@/", environment: Self.none, home: "/nonexistent")
        #expect([b.host, b.database] == ["localhost", "carol"])
        #expect(b.port == 5432)
        #expect(b.tls == .prefer)
        #expect(b.password == nil)
    }

    @Test func aSocketFolderAndPercentEncoding() throws {
        let a = try ServerAddress("postgres://d%40x:p%3Aw@/db?host=/var/run/postgresql", environment: Self.none, home: "/nonexistent")
        #expect(a.user == "d@x")
        #expect(a.password == "p:w")
        #expect(a.host == "/var/run/postgresql")
        #expect(a.description == "postgres://d@x@:5432/db?host=/var/run/postgresql")
    }

    @Test(arguments: [
        ("http://x/y", "is not a postgres:// URL"),
        ("postgres://u:hunter2@h/db?sslmode=maybe", "sslmode “maybe” is not one of"),
        ("postgres://h:99999/db", "port “99999” is not a number from 1 to 65535"),
        ("postgres://h/db?port=0", "port “0” is not a number from 1 to 65535"),
        ("postgres://h/db?application_name=x", "“application_name” is not a setting Burrow knows"),
        ("postgres://u:hunter2@h/db?sslmode", "has no value")
    ])
    func badURLsAreRefusedWithoutShowingThePassword(url: String, says: String) {
        #expect {
            try ServerAddress(url, environment: Self.none, home: "/nonexistent")
        } throws: { error in
            let m = "\(error)"
            return (error as? ServerError)?.code == .badAddress && m.contains(says) && !m.contains("hunter2")
        }
    }

    @Test func thePasswordFileAsLibpqReadsIt() throws {
        let dir = TemporaryDirectory("burrow-pgpass")
        let file = dir.path("pgpass")
        try """
        # comment
        other:5432:*:ann:wrong
        db.example.org:5432:outlines:ann:first\\:half\\\\
        *:*:*:ann:any
        """.write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o600)
        let env = ["PGPASSFILE": file]
        #expect(try ServerAddress("postgres://ann@db.example.org/outlines", environment: env).password == "first:half\\")
        #expect(try ServerAddress("postgres://ann@elsewhere/x", environment: env).password == "any")
        #expect(try ServerAddress("postgres://zed@elsewhere/x", environment: env).password == nil)
        // The URL's own password wins; then PGPASSWORD.
        #expect(try ServerAddress("postgres://ann:mine@elsewhere/x", environment: env).password == "mine")
        #expect(try ServerAddress("postgres://ann@elsewhere/x", environment: env.merging(["PGPASSWORD": "env"]) { $1 }).password == "env")
        // Readable by others: ignored, as libpq does.
        chmod(file, 0o644)
        #expect(try ServerAddress("postgres://ann@elsewhere/x", environment: env).password == nil)
        // ~/.pgpass by default.
        try FileManager.default.moveItem(atPath: file, toPath: dir.path(".pgpass"))
        chmod(dir.path(".pgpass"), 0o600)
        #expect(try ServerAddress("postgres://ann@elsewhere/x", environment: Self.none, home: dir.url.path).password == "any")
    }
}
