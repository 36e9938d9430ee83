import Foundation
import TestSupport

/// The package's built executables, found beside the test bundle (`swift test` builds them first).
enum Binaries {
    static let directory: URL = {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent()
    }()

    static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// Runs `name` with `arguments`, stdin from /dev/null and output captured: (status, stdout, stderr).
    static func run(_ name: String, _ arguments: [String] = [], environment: [String: String]? = nil) throws -> (Int32, String, String) {
        try runTool(path(name), arguments, environment: environment)
    }

    /// Runs the program at `executable` the same way.
    static func runTool(_ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil) throws -> (Int32, String, String) {
        let r = try Spawn.run(executable, arguments, environment: environment)
        return (r.status, r.out, r.err)
    }
}
