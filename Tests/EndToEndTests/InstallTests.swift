import Foundation
import TestSupport
import Testing

/// `Resources/install.sh` into a temporary prefix, as a user who keeps Burrow runs it: then the installed
/// program, its man page (found through PATH, as `man` looks) and its completions (bash runs its own), and
/// the uninstall, which takes back exactly what was installed.
@Suite(.onAThreadOfItsOwn("end-to-end")) struct InstallTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let installed = [
        "bin/burrow", "share/man/man1/burrow.1", "share/bash-completion/completions/burrow",
        "share/zsh/site-functions/_burrow", "share/fish/vendor_completions.d/burrow.fish"
    ]

    private func script(_ arguments: [String], prefix: String, extra: [String: String] = [:]) throws -> (Int32, String, String) {
        var environment = ProcessInfo.processInfo.environment
        environment["PREFIX"] = prefix
        // The binary this test run built; the script builds a release one when it is not given.
        environment["BURROW_BINARY"] = Binaries.path("burrow")
        for (k, v) in extra { environment[k] = v }
        return try Binaries.runTool(Self.root.appendingPathComponent("Resources/install.sh").path, arguments, environment: environment)
    }

    @Test func installsRunsAndUninstalls() throws {
        let dir = TemporaryDirectory()
        let prefix = dir.url.appendingPathComponent("prefix with space").path
        let (status, out, err) = try script([], prefix: prefix)
        #expect(status == 0, "\(err)")
        for file in Self.installed {
            #expect(FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file) not installed: \(out)")
        }
        #expect(FileManager.default.isExecutableFile(atPath: prefix + "/bin/burrow"))
        #expect(out.contains("is not on PATH"), "the user is told to put the prefix's bin on PATH")

        // The installed program works on its own.
        let db = dir.url.appendingPathComponent("o.sqlite").path
        let (_, version, _) = try Binaries.run("burrow", ["--version"])
        #expect(try Binaries.runTool(prefix + "/bin/burrow", ["--version"]).1 == version)
        #expect(try Binaries.runTool(prefix + "/bin/burrow", ["add", "Milk", "--db", db]).0 == 0)
        #expect(try Binaries.runTool(prefix + "/bin/burrow", ["ls", "--db", db]).1.contains("Milk"))

        // The man page, found as `man` finds pages: from PATH's bin to its share/man.
        let path = prefix + "/bin:/usr/bin:/bin"
        let man = try Binaries.runTool("/bin/sh", ["-c", "man -w burrow"], environment: ["PATH": path, "MANPATH": ""])
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/man") {
            #expect(man.1.trimmingCharacters(in: .whitespacesAndNewlines) == prefix + "/share/man/man1/burrow.1", "\(man)")
            let page = try Binaries.runTool(
                "/bin/sh", ["-c", "MANWIDTH=80 man burrow | col -b"], environment: ["PATH": path, "MANPATH": "", "MANPAGER": "cat"])
            #expect(page.1.contains("burrow") && page.1.contains("import"), "\(page)")
        }
        let page = try String(contentsOfFile: prefix + "/share/man/man1/burrow.1", encoding: .utf8)
        #expect(page.contains(".Dt BURROW 1"))

        // bash's completion, run as bash runs it: `burrow im<Tab>` and `burrow export --for<Tab>`.
        let completion = prefix + "/share/bash-completion/completions/burrow"
        let bash = try Binaries.runTool(
            "/bin/bash",
            [
                "-c",
                """
                source "$1"
                complete -p burrow
                COMP_WORDS=(burrow im); COMP_CWORD=1; COMP_LINE="burrow im"; COMP_POINT=9; _burrow burrow im burrow
                echo "one: ${COMPREPLY[*]}"
                COMPREPLY=(); COMP_WORDS=(burrow export --for); COMP_CWORD=2; COMP_LINE="burrow export --for"; COMP_POINT=19
                _burrow burrow --for export
                echo "two: ${COMPREPLY[*]}"
                """, "bash", completion
            ], environment: ["PATH": path])
        #expect(bash.1.contains("-F _burrow burrow"), "\(bash)")
        #expect(bash.1.contains("one: import"), "\(bash)")
        #expect(bash.1.contains("two: --format"), "\(bash)")
        // zsh and fish read their files with their own parsers, when they are installed.
        for (shell, file) in [("zsh", "share/zsh/site-functions/_burrow"), ("fish", "share/fish/vendor_completions.d/burrow.fish")] {
            let text = try String(contentsOfFile: prefix + "/" + file, encoding: .utf8)
            #expect(text.contains(shell == "zsh" ? "#compdef burrow" : "complete -c 'burrow'"))
            if FileManager.default.isExecutableFile(atPath: "/usr/bin/\(shell)") {
                #expect(try Binaries.runTool("/usr/bin/\(shell)", ["-n", prefix + "/" + file]).0 == 0, "\(shell) cannot read \(file)")
            }
        }

        // Installing again over it is fine; the uninstall removes the five files and nothing else.
        #expect(try script([], prefix: prefix).0 == 0)
        let keep = prefix + "/bin/other-tool"
        try "#!/bin/sh\n".write(toFile: keep, atomically: true, encoding: .utf8)
        let (removed, said, _) = try script(["uninstall"], prefix: prefix)
        #expect(removed == 0)
        for file in Self.installed { #expect(!FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file) left") }
        #expect(FileManager.default.fileExists(atPath: keep))
        #expect(FileManager.default.fileExists(atPath: db), "an outline is never uninstalled")
        #expect(said.contains("uninstalled"))
    }

    @Test func refusesWhatItCannotDo() throws {
        let dir = TemporaryDirectory()
        #expect(try script(["upgrade"], prefix: dir.url.path).0 == 2)
        #expect(try script([], prefix: "relative/prefix").0 == 2)
        let (status, _, err) = try script([], prefix: dir.url.path, extra: ["BURROW_BINARY": dir.url.path + "/missing"])
        #expect(status == 1 && err.contains("no program"))
        #expect(!FileManager.default.fileExists(atPath: dir.url.path + "/bin/burrow"))
    }
}
