import ArgumentParser
import BurrowConfig
import Foundation
import ObjectGraph
import Outline
import OutlineServer
import OutlineSync
import TerminalKit

/// `burrow sync attach URL | now | status | detach`
struct Sync: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", _superCommandName: Burrow.toolName,
        abstract: "Share the outline through a PostgreSQL server.",
        discussion: """
            attach URL connects this outline (postgres://user@host:port/database, TLS as sslmode says; the \
            password from the URL, $PGPASSWORD or ~/.pgpass, never kept in the outline): a server with no outline \
            gets this one, an empty outline gets the server's. now sends what waits and receives what others did, \
            once. status says where the outline is shared and what waits to be sent. detach forgets the server.             The outliner syncs by itself while it is open on a shared outline. The config file's sync-url (a file             only its owner may read: chmod 600) is used instead of the kept address when no --url is given.
            """,
        subcommands: [Attach.self, Now.self, Status.self, Detach.self])

    struct Attach: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "attach", abstract: "Share this outline through the server at URL.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "postgres://user@host:port/database") var url: String

        func run() async throws {
            let path = try database.path()
            let address = try ServerAddress(url)
            let connection = try await ServerConnection.connect(address)
            let said: String
            do {
                said = try await Replicator(outline: try Sync.open(path)).attach(address, through: connection)
                await connection.close()
            } catch {
                await connection.close()
                throw error
            }
            say(Sanitizer.visible(said))
        }
    }

    struct Now: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "now", abstract: "Send what waits and receive what others did, once.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "The server's URL, when its password is only there (it is never kept in the outline).") var url: String?

        func run() async throws {
            let path = try database.path(creatingFolder: false)
            let url = self.url ?? Sync.configuredURL()
            let sync = Replicator(outline: try Sync.open(path))
            guard let stored = try sync.status().address else {
                throw UserError("this outline is not shared (burrow sync attach URL first)")
            }
            let connection = try await ServerConnection.connect(try ServerAddress(url ?? stored))
            let round: Replicator.Round
            do {
                round = try await sync.syncOnce(through: connection)
                await connection.close()
            } catch {
                await connection.close()
                throw error
            }
            for note in round.notes { Console.current.err("burrow: \(Sanitizer.visible(note))\n") }
            say("Sent \(round.sent) change\(round.sent == 1 ? "" : "s"), received \(round.received)")
            if round.withdrawn > 0 {
                say("\(round.withdrawn) action\(round.withdrawn == 1 ? " was" : "s were") undone here before being sent: not sent")
            }
            if let why = round.repaired { say("This outline had gone its own way (\(why)): it is now the server's outline, whole") }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Where the outline is shared and what waits to be sent.")
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let path = try database.path(creatingFolder: false)
            guard FileManager.default.fileExists(atPath: path) else {
                say("not shared (no outline at \(Sanitizer.visible(path)))")
                return
            }
            for line in try await lines(path) { say(Sanitizer.visible(line)) }
        }

        /// What `status` says, line by line.
        private func lines(_ path: String) async throws -> [String] {
            let configured = Sync.configuredURL()
            let sync = Replicator(outline: try Sync.open(path))
            let status = try sync.status()
            guard let address = status.address, let id = status.outline else { return ["not shared"] }
            var online = "online"
            var digest: String?
            do {
                let connection = try await ServerConnection.connect(try ServerAddress(configured ?? address), timeout: .seconds(3))
                // In step or not, as the rounds check it: the digests at the same change.
                let read: Result<(digest: OutlineDigest, seq: Int64)?, ServerError>
                do throws(ServerError) { read = .success(try await connection.digest(outline: id)) } catch { read = .failure(error) }
                await connection.close()
                if let server = try read.get(), let here = try sync.localDigest(outline: id) {
                    if here.seq != server.seq {
                        digest = "the server is at change \(server.seq) (burrow sync now catches up)"
                    } else if here.digest == server.digest && here.unnamed == 0 {
                        digest = "in step with the server (digest \(here.digest))"
                    } else {
                        digest = "not in step with the server (digest \(here.digest), the server's \(server.digest)): burrow sync now repairs it"
                    }
                }
            } catch {
                online = "offline (\(error))"
            }
            if status.attaching { return ["attaching to \(address): cut short, burrow sync attach \(address) finishes it"] }
            return [
                "shared through \(address)", online,
                "\(status.pending) action\(status.pending == 1 ? "" : "s") waiting to be sent", "at change \(status.seq)"
            ] + (digest.map { [$0] } ?? [])
        }
    }

    struct Detach: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "detach", abstract: "Stop sharing this outline (its items stay).")
        @OptionGroup var database: DatabaseOptions

        func run() throws {
            try database.writeExisting { outline in
                let sync = Replicator(outline: outline)
                guard let address = try sync.status().address else { throw UserError("this outline is not shared") }
                try sync.detach()
                say("No longer shared through \(Sanitizer.visible(address))")
            }
        }
    }

    /// The config file's `sync-url` (only from a file others cannot read; see `Configuration.syncURL`).
    static func configuredURL() -> String? {
        let environment = Console.current.environment
        return Configuration.load(from: Configuration.path(environment: environment), environment: environment).syncURL
    }

    /// The outline at `path`, opened for the sync (its own connection, inside the task that uses it).
    static func open(_ path: String) throws -> Outline {
        let outline = try Outline(path: path)
        _ = try outline.root()
        outline.undoHistory.origin = DatabaseOptions.origin
        return outline
    }
}
