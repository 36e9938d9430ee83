import ArgumentParser
import Testing

@testable import BurrowCommands

/// `BurrowMain.parse` reads a subcommand named first on its own (a quick command's process no longer parses
/// its arguments three times). Over every command's options, in the ways a script or a mistyped line writes
/// them, that must give the very command `burrow` as a whole gives, or fail as it fails.
@Suite struct ParseEquivalenceTests {
    /// Each command's path of names below `burrow` (`["history"]`, `["config", "check"]`), with its type.
    static var commands: [(names: [String], type: any ParsableCommand.Type)] {
        var out: [(names: [String], type: any ParsableCommand.Type)] = []
        var stack: [(names: [String], type: any ParsableCommand.Type)] = Burrow.configuration.subcommands.map {
            ([$0.configuration.commandName ?? ""], $0)
        }
        while let next = stack.popLast() {
            out.append(next)
            stack += next.type.configuration.subcommands.map { (next.names + [$0.configuration.commandName ?? ""], $0) }
        }
        return out
    }

    /// The long options of `type`, as its help lists them (`--under`), without `--help`.
    static func options(of type: any ParsableCommand.Type) -> [String] {
        Burrow.helpMessage(for: type).split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard let first = words.first, first.hasPrefix("-"),
                let long = words.prefix(2).first(where: { $0.hasPrefix("--") })
            else { return nil }
            let name = String(long.trimmingCharacters(in: .init(charactersIn: ",")))
            return name == "--help" ? nil : name
        }
    }

    /// Argument lists for the command at `names`: bare, help, values, every option alone, with a value, and
    /// before and after other words, unknown options, `--` and a missing option value.
    static func argumentLists(_ names: [String], options: [String]) -> [[String]] {
        var lists: [[String]] = [
            [], ["--help"], ["-h"], ["--version"], ["x"], ["x", "y"], ["-"], ["--", "-x"], ["--bogus"], ["x", "--db"],
            ["--db", "f.sqlite", "x", "y"], ["x", "--help"], ["x", "--", "--help"], ["help"], ["#2", "2026-12-01"], ["-3"]
        ]
        for option in options {
            lists += [[option], [option, "1", "x"], ["x", option, "2026-12-01"], ["x", option, option], [option + "=-1", "x", "--db", "f"]]
        }
        return lists.map { names + $0 }
    }

    static func describe(_ result: Result<any ParsableCommand, any Error>) -> String {
        switch result {
        case .success(let command):
            var out = "\(type(of: command))\n"
            dump(command, to: &out)
            return out
        case .failure:
            // A direct parse that fails is parsed again the whole way: the same error by construction.
            return "failed"
        }
    }

    @Test func aSubcommandParsedAloneIsTheCommandTheWholeParseGives() {
        var compared = 0, alone = 0, differing: [String] = []
        for (names, type) in Self.commands {
            for arguments in Self.argumentLists(names, options: Self.options(of: type)) {
                compared += 1
                // What the subcommand alone refuses is parsed the whole way: nothing there can differ.
                guard let command = BurrowMain.parseAlone(arguments) else { continue }
                alone += 1
                let direct = Self.describe(.success(command))
                let whole = Self.describe(Result { try Burrow.parseAsRoot(arguments) })
                if direct != whole { differing.append("burrow \(arguments.joined(separator: " ")):\n\(direct)\n--- whole:\n\(whole)") }
            }
        }
        #expect(differing.isEmpty, "\(differing.count) differ, first: \(differing.first ?? "")")
        // The corpus must reach both sides: commands read alone, and mistakes and help that are not.
        #expect(alone > 120 && compared - alone > 300, "\(alone) of \(compared) read alone")
    }

    @Test func aQuickCommandIsReadAlone() throws {
        let command = try #require(BurrowMain.parseAlone(["add", "Call the plumber", "--db", "f.sqlite"]))
        #expect(command is Add)
        #expect(BurrowMain.parseAlone(["add", "--help"]) == nil)
        #expect(BurrowMain.parseAlone(["--db", "f.sqlite", "add", "x"]) == nil)
    }
}
