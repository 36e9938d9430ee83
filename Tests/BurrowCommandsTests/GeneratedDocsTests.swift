import ArgumentParser
import Foundation
import Testing

@testable import BurrowCommands

/// The completion scripts and the man page in docs/ are generated from the command definitions
/// (docs/regenerate.sh); these tests fail when they are stale.
@Suite struct GeneratedDocsTests {
    static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs")

    @Test(arguments: [CompletionShell.bash, .zsh, .fish])
    func completionScriptsAreCurrent(shell: CompletionShell) throws {
        let file = Self.docs.appendingPathComponent("completions/burrow.\(shell.rawValue)")
        let stored = try String(contentsOf: file, encoding: .utf8)
        let current = Burrow.completionScript(for: shell)
        #expect(
            stored.trimmingCharacters(in: .newlines) == current.trimmingCharacters(in: .newlines),
            "docs/completions is stale: run docs/regenerate.sh")
    }

    @Test func manPageCoversEveryCommandAndOption() throws {
        let man = try String(contentsOf: Self.docs.appendingPathComponent("burrow.1"), encoding: .utf8)
        for sub in Burrow.configuration.subcommands {
            let config = sub.configuration
            let name = config.commandName ?? String(describing: sub).lowercased()
            #expect(man.contains(".It Em \(name)"), "burrow.1 lacks \(name): run docs/regenerate.sh")
            #expect(man.contains(config.abstract), "burrow.1 has an old summary of \(name): run docs/regenerate.sh")
            // Option lines of the help look like "  -o, --output <output>   The file to write".
            for line in Burrow.helpMessage(for: sub).split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let first = words.first, first.hasPrefix("-"),
                    let long = words.prefix(2).first(where: { $0.hasPrefix("--") })
                else { continue }
                let flag = long.dropFirst(2).trimmingCharacters(in: CharacterSet(charactersIn: ","))
                if flag == "help" { continue }
                #expect(man.contains("-\(flag)"), "burrow.1 lacks --\(flag) of \(name): run docs/regenerate.sh")
            }
        }
    }
}

/// ArgumentParser derives an unnamed command's name with `String(describing:)` on every run, for every
/// command, and each of those casts scans the whole binary's protocol conformances: half of `burrow
/// --version`'s 14 ms. Every command names itself.
@Suite struct CommandNameTests {
    @Test func everyCommandNamesItself() {
        var unnamed: [String] = []
        var commands: [any ParsableCommand.Type] = [Burrow.self]
        while let command = commands.popLast() {
            if command.configuration.commandName == nil { unnamed.append(String(describing: command)) }
            commands += command.configuration.subcommands
        }
        #expect(unnamed.isEmpty, "give these a commandName: \(unnamed)")
    }
}
