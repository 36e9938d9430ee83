import BurrowConfig
import Foundation
import TestSupport
import Testing

@testable import BurrowCommands

/// `burrow config check|path|default`, and the config's database, run in-process with an environment of their
/// own: the config and data folders are in a temporary folder.
@Suite struct ConfigCommandTests {
    let dir = TemporaryDirectory("burrow-config-cli")
    var configPath: String { dir.path("config/burrow/config.toml") }
    var environment: [String: String] {
        ["HOME": dir.path("home"), "XDG_CONFIG_HOME": dir.path("config"), "XDG_DATA_HOME": dir.path("data")]
    }

    final class Output: @unchecked Sendable {
        private let lock = NSLock()
        private var out = "", err = ""
        func add(out s: String) { lock.withLock { out += s } }
        func add(err s: String) { lock.withLock { err += s } }
        var texts: (String, String) { lock.withLock { (out, err) } }
    }

    /// Exit status, stdout and stderr of `burrow ARGS` (no `--db` added).
    func run(_ args: String..., environment extra: [String: String] = [:]) -> (Int32, String, String) {
        let output = Output()
        let console = Console(
            out: { output.add(out: $0) }, err: { output.add(err: $0) }, input: { Data() },
            environment: environment.merging(extra) { $1 })
        let code = Console.$current.withValue(console) { BurrowMain.run(args) }
        let (out, err) = output.texts
        return (code, out, err)
    }

    func writeConfig(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: dir.path("config/burrow"), withIntermediateDirectories: true)
        try text.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    @Test func pathSaysWhereTheFileGoesWhetherOrNotItExists() {
        #expect(run("config", "path") == (0, configPath + "\n", ""))
        #expect(!FileManager.default.fileExists(atPath: configPath), "saying where creates nothing")
        let home = run("config", "path", environment: ["XDG_CONFIG_HOME": "relative/dir"])
        #expect(home == (0, dir.path("home") + "/.config/burrow/config.toml\n", ""))
    }

    @Test func checkWithoutAFileIsFine() {
        #expect(run("config", "check") == (0, "No config file at \(configPath): the defaults are used\n", ""))
    }

    @Test func checkAGoodFile() throws {
        try writeConfig("[keys]\ndelete = \"X\"\n")
        #expect(run("config", "check") == (0, "No problems in \(configPath)\n", ""))
    }

    @Test func checkPrintsEveryProblemWithPathLineAndColumn() throws {
        try writeConfig("hide-done = 1\n[keys]\nmveDown = \"j\"\ndelete = \"j\"\n[colors]\ndone = \"bleu\"\n")
        let (code, out, err) = run("config", "check")
        #expect(code == 1)
        #expect(err == "")
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0] == "\(configPath):1:13: hide-done must be true or false, not a number")
        #expect(lines[1] == "\(configPath):3:1: unknown command “mveDown” (burrow config default lists them)")
        #expect(lines[2].hasPrefix("\(configPath):4:10: “j” is bound twice"))
        #expect(lines[3].hasPrefix("\(configPath):6:8: unknown colour “bleu”"))
    }

    @Test func checkASyntaxErrorAndAFileThatCannotBeUsed() throws {
        try writeConfig("[keys\n")
        let (code, out, _) = run("config", "check")
        #expect(code == 1)
        #expect(out.hasPrefix("\(configPath):1:6: "), "\(out)")
        try FileManager.default.removeItem(atPath: configPath)
        try FileManager.default.createDirectory(atPath: configPath, withIntermediateDirectories: true)
        #expect(run("config", "check") == (1, "\(configPath): is a folder, not a file\n", ""))
    }

    /// A file named on the command line is checked instead, so one can be tried before it is put in place.
    @Test func checkANamedFile() throws {
        let other = dir.path("try.toml")
        try "osc52 = \"no\"\n".write(toFile: other, atomically: true, encoding: .utf8)
        #expect(run("config", "check", other) == (1, "\(other):1:9: osc52 must be true or false, not a string\n", ""))
        #expect(run("config", "check", dir.path("none.toml")).0 == 0)
    }

    /// The default file checks clean and, saved as the config, changes nothing: ls still reads the default
    /// database.
    @Test func theDefaultFileChecksClean() throws {
        let (code, text, err) = run("config", "default")
        #expect(code == 0 && err == "")
        #expect(text == Configuration.defaultFile)
        try writeConfig(text)
        #expect(run("config", "check") == (0, "No problems in \(configPath)\n", ""))
    }

    /// The config's database is used when neither --db nor $BURROW_DB names one; both win over it.
    @Test func theConfigsDatabaseComesAfterDbAndBurrowDB() throws {
        let configured = dir.path("configured.sqlite")
        try writeConfig("database = \"\(configured)\"\n")
        // Named in the config file and not there yet: an error, not an empty outline; the default location is
        // not read instead.
        #expect(run("ls") == (1, "", "burrow: there is no outline at \(configured) (burrow add makes one)\n"))
        #expect(run("add", "In the configured one").0 == 0)
        #expect(FileManager.default.fileExists(atPath: configured))
        #expect(run("ls").1 == "[ ] In the configured one\n")

        let named = dir.path("named.sqlite")
        #expect(run("add", "--db", named, "Named").0 == 0)
        #expect(run("ls", "--db", named).1 == "[ ] Named\n")
        #expect(run("ls", environment: ["BURROW_DB": named]).1 == "[ ] Named\n")
        #expect(run("ls").1 == "[ ] In the configured one\n")

        // `~/` is the home folder.
        try writeConfig("database = \"~/home.sqlite\"\n")
        try FileManager.default.createDirectory(atPath: dir.path("home"), withIntermediateDirectories: true)
        #expect(run("add", "At home").0 == 0)
        #expect(FileManager.default.fileExists(atPath: dir.path("home") + "/home.sqlite"))
    }

    /// A bad config never stops a command and adds nothing to its output; only the parts it gets right count.
    @Test func aBadConfigDoesNotStopCommands() throws {
        try writeConfig("hide-done = [\n")
        #expect(run("add", "Milk") == (0, "Added “Milk” #2 under the top level\n", ""))
        #expect(run("ls") == (0, "[ ] Milk\n", ""))
        #expect(FileManager.default.fileExists(atPath: dir.path("data/burrow/outline.sqlite")))

        // A bad database line keeps the default database; the rest of the file is read as usual.
        try writeConfig("database = \"relative.sqlite\"\n[keys]\nundo = \"u\"\n")
        #expect(run("ls") == (0, "[ ] Milk\n", ""))
        try FileManager.default.removeItem(atPath: configPath)
        try FileManager.default.createDirectory(atPath: configPath, withIntermediateDirectories: true)
        #expect(run("ls") == (0, "[ ] Milk\n", ""))
    }
}
