import Foundation

/// Issue 34's commands as a script meets them: the whole process of `burrow --version`, `add`, `ls` and
/// `find`, from spawn to exit, on an outline of `size` items, beside `sqlite3 DB 'select 1'` (the C library's
/// own shell opening the same file) in the same run, alternated.
struct CommandBenchmarks {
    let size: Int
    let runs: Int

    func run(only: Set<String>) throws {
        guard only.isEmpty || only.contains("commands") else { return }
        guard let burrow = Harness.sibling("burrow") else {
            print("commands: skipped (build the outliner beside the benchmark: swift build -c release)")
            return
        }
        // The installed binary (Resources/install.sh) carries the Swift runtime inside it; one that loads it
        // from shared libraries spends a quarter of a quick command resolving their symbols.
        let linked =
            switch Self.loadsSwiftRuntime(burrow) {
            case true?: "Swift runtime from shared libraries (installed: static)"
            case false?: "Swift runtime inside, as installed"
            case nil: "cannot be read to tell how it is linked"
            }
        print("commands: \(burrow): \(linked)")
        let dir = Harness.scratch("commands")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let generated = try GeneratedOutline.make(size: size, in: dir + "/gen")
        let store = dir + "/outline.sqlite"
        try GeneratedOutline.importText(from: generated, into: store)
        let sqlite = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let commands: [(name: String, arguments: [String])] = [
            ("--version", ["--version"]),
            ("add", ["add", "Call the plumber", "--db", store]),
            ("ls", ["ls", "--db", store]),
            ("find (first 10 hits)", ["find", "fox", "--limit", "10", "--db", store])
        ]
        var times = Array(repeating: [Double](), count: commands.count)
        var baseline: [Double] = []
        for _ in 0..<runs {
            if let sqlite, let t = Harness.runProcess(sqlite, [store, "select 1"]) { baseline.append(t) }
            for (i, command) in commands.enumerated() {
                guard let t = Harness.runProcess(burrow, command.arguments) else {
                    throw PseudoTerminal.Failure("burrow \(command.arguments.joined(separator: " ")) failed")
                }
                times[i].append(t)
            }
        }
        let base = baseline.isEmpty ? 0 : Harness.percentile(baseline, 0.5)
        for (i, command) in commands.enumerated() {
            Harness.report(
                "\(size) items: burrow \(command.name) (vs sqlite3)", ours: Harness.percentile(times[i], 0.5), baseline: base,
                goal: "<= 10 ms, whole process")
        }
    }

    /// Whether `binary` names libswiftCore among the shared libraries it needs (its dynamic section's names
    /// are in the file as plain text; a static build has none); nil when it cannot be read.
    static func loadsSwiftRuntime(_ binary: String) -> Bool? {
        guard let handle = FileHandle(forReadingAtPath: binary) else { return nil }
        defer { try? handle.close() }
        // The dynamic string table sits in the first few megabytes of the file.
        let head = handle.readData(ofLength: 8 << 20)
        return head.range(of: Data("libswiftCore.so".utf8)) != nil
    }
}
