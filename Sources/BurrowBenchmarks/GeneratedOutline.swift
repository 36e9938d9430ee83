import Foundation
import Outline

/// The generated outlines the scenarios read (big.opml, big.hnb, big.txt), and hnb as their optional baseline.
enum GeneratedOutline {
    /// Writes the outline of `size` items into `dir` (see `OutlineGenerator`) and returns `dir`.
    static func make(size: Int, in dir: String) throws -> String {
        try OutlineGenerator(size: size).write(to: dir)
        return dir
    }

    /// Imports the generated outline in `generated` (its indented-text form) into a new store at `store`,
    /// through the object graph: the setup of the scenarios that open it.
    static func importText(from generated: String, into store: String) throws {
        let outline = try Outline(path: store)
        let text = try String(contentsOfFile: generated + "/big.txt", encoding: .utf8)
        try outline.add(try OutlineFormat.text.read(text), under: try outline.root())
        try outline.save()
    }

    /// hnb, when it is installed (`apt-get install hnb`): the outliner the issues compare with.
    static var hnb: String? {
        ["/usr/bin/hnb", "/usr/local/bin/hnb"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Seconds until hnb has drawn its first screen of `file` (its bottom line of key hints).
    static func hnbStartup(_ file: String, runs: Int) -> Double? {
        guard let hnb else { return nil }
        var times: [Double] = []
        for _ in 0..<runs {
            guard let pty = try? PseudoTerminal(hnb, [file]) else { return nil }
            defer { pty.stop() }
            guard let t = pty.time(until: "return edit") else { return nil }
            times.append(t)
        }
        return Harness.percentile(times, 0.5)
    }
}
