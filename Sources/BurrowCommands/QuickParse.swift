import ArgumentParser

/// The commands run most (`add`, `ls`, `find`, and `burrow` itself, the outliner), read without ArgumentParser
/// when every word is plain: a `--option` of the command's own followed by its value, one of its flags, or a
/// value that does not start with a dash (and `burrow`'s `--db PATH` before the command's name). ArgumentParser reflects over a command's properties and casts each
/// one to its protocols, a quarter of a quick command's whole process (docs/PERFORMANCE.md, issue 34's sixth
/// pass). Anything else (help, `--`, `--opt=value`, short names, a word repeated, a number that does not read, a
/// command its own `validate()` refuses) returns nil and goes to ArgumentParser, so every message stays its own.
/// `ParseEquivalenceTests` compares both over every command line they generate.
enum QuickParse {
    /// The command `arguments` name, as ArgumentParser would make it; nil when it must decide.
    static func command(_ arguments: [String]) -> (any ParsableCommand)? {
        var arguments = arguments
        // `burrow --db PATH add …`: ArgumentParser gives `burrow`'s `--db` to the command, as if it came last
        // (given twice, it decides).
        if arguments.count >= 3, arguments[0] == "--db", !arguments[1].hasPrefix("-"), spec(named: arguments[2]) != nil {
            arguments = Array(arguments[2...]) + arguments[0...1]
        }
        // A first word that names no command of these is `burrow`'s own (only `--db` is plain there).
        let (spec, rest) = arguments.first.flatMap(spec(named:)).map { ($0, arguments.dropFirst()) } ?? (root, arguments[...])
        guard let words = Words(rest, options: spec.options, flags: spec.flags) else { return nil }
        guard var command = spec.make(words) else { return nil }
        do {
            try command.validate()
        } catch {
            return nil
        }
        return command
    }

    /// A command's names (long, with their dashes) and how its parsed words become the command.
    struct Spec {
        let options: [String]
        let flags: [String]
        let make: @Sendable (Words) -> (any ParsableCommand)?
    }

    /// The words of one command line, sorted into option values, flags given and the other values in order.
    struct Words {
        private(set) var values: [String: String] = [:]
        private(set) var flags: Set<String> = []
        private(set) var positionals: [String] = []

        init?(_ arguments: ArraySlice<String>, options: [String], flags: [String]) {
            var rest = arguments[...]
            while let word = rest.popFirst() {
                guard word.hasPrefix("-"), word != "-" else {
                    positionals.append(word)
                    continue
                }
                if options.contains(word) {
                    guard values[word] == nil, let value = rest.popFirst(), !value.hasPrefix("-") else { return nil }
                    values[word] = value
                } else if flags.contains(word) {
                    guard self.flags.insert(word).inserted else { return nil }
                } else {
                    return nil
                }
            }
        }

        /// The value of `--option` read as a number; `.some(nil)` when it was not given, nil when it does not
        /// read as one (ArgumentParser words that refusal).
        func number(_ option: String) -> Int?? {
            guard let text = values[option] else { return .some(nil) }
            guard let n = Int(text) else { return nil }
            return .some(n)
        }

        /// `--db`'s value, as every command's `DatabaseOptions`.
        var database: DatabaseOptions {
            var d = DatabaseOptions()
            d.db = values["--db"]
            return d
        }
    }

    /// `burrow` and `burrow --db PATH`: the outliner, as it is started most.
    static let root = Spec(options: ["--db"], flags: []) { w in
        guard w.positionals.isEmpty else { return nil }
        var c = Burrow()
        c.database = w.database
        return c
    }

    /// The spec of the command `name` (a switch, not a dictionary: this runs once per process, where building
    /// a table costs more than reading it).
    static func spec(named name: String) -> Spec? {
        switch name {
        case "add": add
        case "ls": ls
        case "find": find
        default: nil
        }
    }

    /// Every command's spec by name, for tests.
    static var specs: [String: Spec] { ["add": add, "ls": ls, "find": find] }

    static let add = Spec(options: ["--db", "--under"], flags: ["--top", "--literal"]) { w in
        var c = Add()
        c.database = w.database
        c.under = w.values["--under"]
        c.top = w.flags.contains("--top")
        c.literal = w.flags.contains("--literal")
        c.texts = w.positionals
        return c
    }

    static let ls = Spec(options: ["--db", "--depth", "--tag"], flags: ["--tree", "--ids", "--notes", "--json"]) { w in
        guard w.positionals.count <= 1, let depth = w.number("--depth") else { return nil }
        var c = Ls()
        c.database = w.database
        c.path = w.positionals.first ?? ""
        c.tree = w.flags.contains("--tree")
        c.depth = depth
        c.ids = w.flags.contains("--ids")
        c.notes = w.flags.contains("--notes")
        c.json = w.flags.contains("--json")
        c.tag = w.values["--tag"]
        return c
    }

    static let find = Spec(options: ["--db", "--limit"], flags: ["--json"]) { w in
        guard w.positionals.count == 1, let limit = w.number("--limit") else { return nil }
        var c = Find()
        c.database = w.database
        c.query = w.positionals[0]
        c.limit = limit
        c.json = w.flags.contains("--json")
        return c
    }
}
