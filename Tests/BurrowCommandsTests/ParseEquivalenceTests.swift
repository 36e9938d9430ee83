import ArgumentParser
import Foundation
import TestSupport
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

    /// Both commands when `command` is not what ArgumentParser makes of `arguments` the whole way; nil when it is.
    static func difference(_ command: any ParsableCommand, _ arguments: [String]) -> String? {
        let read = describe(.success(command))
        let whole = describe(Result { try Burrow.parseAsRoot(arguments) })
        return read == whole ? nil : "burrow \(arguments.joined(separator: " ")):\n\(read)\n--- whole:\n\(whole)"
    }

    @Test func aSubcommandParsedAloneIsTheCommandTheWholeParseGives() {
        var compared = 0, alone = 0, differing: [String] = []
        for (names, type) in Self.commands {
            for arguments in Self.argumentLists(names, options: Self.options(of: type)) {
                compared += 1
                // What the subcommand alone refuses is parsed the whole way: nothing there can differ.
                guard let command = BurrowMain.parseAlone(arguments) else { continue }
                alone += 1
                if let difference = Self.difference(command, arguments) { differing.append(difference) }
            }
        }
        #expect(differing.isEmpty, "\(differing.count) differ, first: \(differing.first ?? "")")
        // The corpus must reach both sides: commands read alone, and mistakes and help that are not.
        #expect(alone > 120 && compared - alone > 300, "\(alone) of \(compared) read alone")
    }

    /// `QuickParse` reads `add`, `ls`, `find` and `burrow` without ArgumentParser: each command it makes must be
    /// the one ArgumentParser makes of the same words, over the corpus above and random lines of each command's
    /// own options, flags and awkward values; and it must know every option the command has (one it did not
    /// set would be read unset, and stop the process).
    @Test(arguments: [1] as [UInt64]) func plainWordsAreReadAsArgumentParserReadsThem(seed: UInt64) throws {
        let values = [
            "x", "Call the plumber", "-", "-x", "--", "", " ", "12", "0", "-3", "+3", "1_000", "#2", "Work/Projects", "é",
            "help", "--help", "-h", "2026-12-01", "tag:work", "a=b", "TODO Call Bob !A due:fri"
        ]
        var rng = SeededRandom(seed: seed)
        var compared = 0, quick = 0, quickAfterRootDatabase = 0, differing: [String] = []
        let specs = QuickParse.specs.map { (names: [$0.key], spec: $0.value) } + [(names: [], spec: QuickParse.root)]
        for (names, spec) in specs.sorted(by: { $0.names.lexicographicallyPrecedes($1.names) }) {
            let name = names.joined()
            let type = try #require(names.isEmpty ? Burrow.self : Self.commands.first { $0.names == names }?.type)
            let options = Self.options(of: type)
            // Its names as help lists them (`--version`, which every command answers, goes to ArgumentParser).
            let named = Set(options.filter { $0.wholeMatch(of: /--[a-z][a-z-]*/) != nil && $0 != "--version" })
            #expect(named == Set(spec.options + spec.flags), "burrow \(name)'s options: \(named.sorted())")
            var lines = Self.argumentLists(names, options: options)
            for _ in 0..<400 {
                // `burrow`'s own `--db` before the command's name, now and then.
                var line = !names.isEmpty && rng.below(4) == 0 ? ["--db", values[rng.below(values.count)]] + names : names
                for _ in 0..<rng.below(7) {
                    switch rng.below(10) {
                    case 0..<4: line.append(values[rng.below(values.count)])
                    case 4..<9:
                        let option = options[rng.below(options.count)]
                        line.append(option)
                        if spec.options.contains(option), rng.below(8) > 0 { line.append(values[rng.below(values.count)]) }
                    default: line.append(["--bogus", "--db=f.sqlite", "-t", "--limit=2"][rng.below(4)])
                    }
                }
                lines.append(line)
            }
            for line in lines {
                compared += 1
                guard let command = QuickParse.command(line) else { continue }
                quick += 1
                if line.first == "--db" { quickAfterRootDatabase += 1 }
                if let difference = Self.difference(command, line) { differing.append(difference) }
            }
        }
        #expect(differing.isEmpty, "\(differing.count) differ, first: \(differing.first ?? "")")
        // Both sides reached: lines read quickly, and lines left to ArgumentParser.
        print(
            "QuickParse, seed \(seed): \(quick) of \(compared) lines read without ArgumentParser"
                + " (\(quickAfterRootDatabase) with `--db` before the command)")
        #expect(quick > 150 && compared - quick > 500 && quickAfterRootDatabase > 20, "\(quick) of \(compared) read quickly")
    }

    /// `add` refuses a blank title without Foundation's character sets: the same texts as
    /// `trimmingCharacters(in: .whitespaces)` empties, over random texts of spaces of every kind, tabs, line
    /// breaks, a zero-width space, a combining mark and letters.
    @Test func aBlankTitleIsWhatTrimmingSpacesEmpties() {
        let scalars: [Unicode.Scalar] = [
            " ", "\t", "\u{A0}", "\u{2003}", "\u{3000}", "\u{202F}", "\n", "\r", "\u{85}", "\u{2028}", "\u{200B}", "\u{301}", "a", "\u{B}"
        ]
        var rng = SeededRandom(seed: 5)
        var blank = 0
        for _ in 0..<3000 {
            var text = ""
            for _ in 0..<rng.below(4) { text.unicodeScalars.append(scalars[rng.below(scalars.count)]) }
            let trimmed = text.trimmingCharacters(in: .whitespaces).isEmpty
            #expect(Add.isBlank(text) == trimmed, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            if trimmed { blank += 1 }
        }
        #expect(blank > 300 && blank < 2700, "\(blank) blank of 3000")
    }

    @Test func aQuickCommandIsReadAlone() throws {
        let command = try #require(BurrowMain.parseAlone(["add", "Call the plumber", "--db", "f.sqlite"]))
        #expect(command is Add)
        #expect(BurrowMain.parseAlone(["add", "--help"]) == nil)
        #expect(BurrowMain.parseAlone(["--db", "f.sqlite", "add", "x"]) == nil)
    }
}
