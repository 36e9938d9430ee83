import Foundation
import TestSupport
import Testing

@testable import BurrowConfig

/// Loading the config file from disk: a missing file is no problem; a file that cannot be used at all is one
/// clear problem and the defaults, never a crash or a hang.
@Suite struct ConfigFileTests {
    let dir = TemporaryDirectory("burrow-config")

    func write(_ name: String, _ data: Data) -> String {
        let path = dir.path(name)
        #expect(FileManager.default.createFile(atPath: path, contents: data))
        return path
    }

    static func messages(_ config: Configuration) -> [String] { config.problems.map(\.description) }

    @Test func aMissingFileIsTheDefaults() {
        let config = Configuration.load(from: dir.path("nothing.toml"))
        #expect(config.problems == [])
        #expect(config.theme == .standard && config.database == nil)
    }

    @Test func aGoodFileIsRead() {
        let path = write("config.toml", Data("osc52 = false\n".utf8))
        let config = Configuration.load(from: path)
        #expect(config.problems == [] && !config.osc52)
    }

    /// A server's URL with its password is used only from a file no one else may read, as libpq uses
    /// ~/.pgpass; refused, it says so at its line, and the password is in no message.
    @Test func aSyncURLOnlyFromAPrivateFile() throws {
        let text = "osc52 = false\nsync-url = \"postgres://ann:s3cret@db.example.org/outlines\"\n"
        let path = write("config.toml", Data(text.utf8))
        chmod(path, 0o600)
        let kept = Configuration.load(from: path)
        #expect(kept.problems == [] && kept.syncURL == "postgres://ann:s3cret@db.example.org/outlines")
        for mode: mode_t in [0o644, 0o640, 0o604, 0o660] {
            chmod(path, mode)
            let refused = Configuration.load(from: path)
            #expect(refused.syncURL == nil && !refused.osc52, "the rest of the file is used")
            #expect(
                Self.messages(refused) == ["2:12: sync-url is not used: others may read this file (mode \(String(mode, radix: 8))); chmod 600 it"])
        }
        let bad = write("bad.toml", Data("sync-url = \"mysql://ann:s3cret@db\"\n\nsync-url-typo = 1\n".utf8))
        chmod(bad, 0o600)
        let messages = Self.messages(Configuration.load(from: bad))
        #expect(messages.count == 2 && messages[0].contains("must start with postgres://"))
        #expect(!messages.joined().contains("s3cret"))
        // Parsed from text alone (no file, no mode), it is kept: the mode is the loader's to check.
        #expect(Configuration.parse("sync-url = \"postgres://a@b/c\"").syncURL == "postgres://a@b/c")
    }

    @Test func aFolderInItsPlace() throws {
        let path = dir.path("config.toml")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(Self.messages(Configuration.load(from: path)) == ["is a folder, not a file"])
    }

    @Test func aLinkToNowhere() throws {
        let path = dir.path("config.toml")
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: dir.path("gone.toml"))
        #expect(Self.messages(Configuration.load(from: path)) == ["the file is a link to nowhere"])
        // A link to a good file is read through.
        let target = write("real.toml", Data("hide-done = true\n".utf8))
        let link = dir.path("link.toml")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(Configuration.load(from: link).hideDone)
    }

    @Test func aPathThroughAFile() {
        let file = write("plain", Data("x".utf8))
        #expect(Self.messages(Configuration.load(from: file + "/config.toml")) == ["cannot be read: Not a directory"])
    }

    /// Reading a FIFO with no writer would wait for ever; it is refused at once.
    @Test(.timeLimit(.minutes(1))) func aFIFOIsRefusedWithoutWaiting() {
        let path = dir.path("config.toml")
        #expect(mkfifo(path, 0o600) == 0)
        #expect(Self.messages(Configuration.load(from: path)) == ["is not a regular file"])
    }

    @Test func aDeviceIsRefused() {
        #expect(Self.messages(Configuration.load(from: "/dev/zero")) == ["is not a regular file"])
    }

    @Test func aHugeFileIsRefused() {
        let path = write("config.toml", Data(repeating: UInt8(ascii: "#"), count: Configuration.maximumFileSize + 1))
        #expect(Self.messages(Configuration.load(from: path)) == ["is larger than 1 MiB; a config file is a few lines"])
        let most = write("most.toml", Data(repeating: UInt8(ascii: "#"), count: Configuration.maximumFileSize))
        #expect(Configuration.load(from: most).problems == [])
    }

    @Test func bytesThatAreNotUTF8SayWhere() {
        var data = Data("osc52 = true\n# é \"".utf8)
        data.append(contentsOf: [0xFF, 0x41])
        let path = write("config.toml", data)
        #expect(Self.messages(Configuration.load(from: path)) == ["2:6: is not UTF-8 text"])
        // A lone continuation byte and a cut sequence too.
        #expect(Self.messages(Configuration.load(from: write("a.toml", Data([0x80])))) == ["1:1: is not UTF-8 text"])
        #expect(Self.messages(Configuration.load(from: write("b.toml", Data([0x61, 0xE2, 0x82])))) == ["1:2: is not UTF-8 text"])
    }

    @Test func aProblemIsPrintedWithItsPath() {
        #expect(ConfigProblem("is a folder, not a file").located(in: "/c/config.toml") == "/c/config.toml: is a folder, not a file")
        #expect(
            ConfigProblem("unknown command “x”", at: SourcePosition(line: 3, column: 1)).located(in: "/c/config.toml")
                == "/c/config.toml:3:1: unknown command “x”")
        #expect(ConfigProblem("x", at: nil).located(in: "/c/\u{1B}[2J.toml") == "/c/^[[2J.toml: x")
    }
}
