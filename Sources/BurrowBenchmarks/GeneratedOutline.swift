import Foundation

/// The shared generator's outlines (`../shared/tools/gen_outline.py N DIR`: big.opml, big.hnb, …), made once
/// per size and run.
enum GeneratedOutline {
    /// The directory holding the generated files for `size` items, or nil when python3 or the generator is
    /// missing (set `BURROW_GEN_OUTLINE` to the script's path when running from elsewhere).
    static func make(size: Int, in dir: String) -> String? {
        let candidates = [
            ProcessInfo.processInfo.environment["BURROW_GEN_OUTLINE"],
            FileManager.default.currentDirectoryPath + "/../shared/tools/gen_outline.py",
        ].compactMap { $0 }
        guard let script = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else { return nil }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", script, String(size), dir]
        p.standardOutput = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return nil }
        p.waitUntilExit()
        return p.terminationStatus == 0 ? dir : nil
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
