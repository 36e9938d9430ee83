import ArgumentParser

extension Burrow {
    /// The usage error for the first argument before `--` that starts with `-` but is none of its command's
    /// options, or nil when there is none (ArgumentParser then parses as usual).
    ///
    /// ArgumentParser reads every such argument as options and splits a single-dash one into letters: `burrow add
    /// -shopping` was `-s -h -o …`, which asked for help, so burrow printed it and exited 0 having added nothing.
    /// A title, path or value that starts with `-` is therefore refused, with the command line rewritten to say
    /// how to give it: after `--`, or after `=` for an option's value.
    static func misreadOption(in arguments: [String]) -> String? {
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        var command: any ParsableCommand.Type = Burrow.self
        var names: [String: Bool]? = nil
        var words = ["burrow"], options: [String] = [], texts: [String] = []
        var culprit: (word: String, option: String?)? = nil
        var i = 0
        while i < end {
            let word = arguments[i]
            i += 1
            if word == "-" || !word.hasPrefix("-") {
                if !command.configuration.subcommands.isEmpty {
                    // `burrow help add` and unknown subcommands are ArgumentParser's to handle; `burrow sync now`
                    // goes down two levels.
                    guard let sub = subcommand(named: word, of: command) else { break }
                    command = sub
                    names = nil
                    words.append(word)
                } else {
                    texts.append(word)
                }
                continue
            }
            let known = names ?? optionNames(of: command)
            names = known
            let name = word.hasPrefix("--") ? String(word.prefix { $0 != "=" }) : word
            guard let takesValue = known[name] else {
                if culprit == nil { culprit = (word, nil) }
                texts.append(word)
                continue
            }
            options.append(word)
            if takesValue, !word.contains("="), i < end {
                let value = arguments[i]
                if value.hasPrefix("-"), value != "-", known[value] == nil {
                    return refusal((value, name), command, words, options, texts)
                }
                options.append(value)
                i += 1
            }
        }
        texts += arguments[min(end + 1, arguments.count)...]
        return culprit.map { refusal($0, command, words, options, texts) }
    }

    private static func subcommand(named word: String, of command: any ParsableCommand.Type) -> (any ParsableCommand.Type)? {
        command.configuration.subcommands.first { ($0.configuration.commandName ?? String(describing: $0).lowercased()) == word }
    }

    /// The command's option names (from its help, so a new option is known at once), each with whether it takes
    /// a value.
    private static func optionNames(of command: any ParsableCommand.Type) -> [String: Bool] {
        var names = ["-h": false, "--help": false, "-help": false, "--help-hidden": false]
        if command == Burrow.self {
            names["--generate-completion-script"] = true
            names["--experimental-dump-help"] = false
        }
        for line in helpMessage(for: command, includeHidden: true, columns: 100_000).split(separator: "\n") {
            let text = line.drop { $0 == " " }
            guard text.hasPrefix("-") else { continue }
            let column = text.range(of: "  ").map { text[..<$0.lowerBound] } ?? text
            for word in column.split(whereSeparator: { $0 == " " || $0 == "," }) where word.hasPrefix("-") {
                names[String(word)] = column.contains("<")
            }
        }
        return names
    }

    private static func refusal(
        _ culprit: (word: String, option: String?), _ command: any ParsableCommand.Type, _ words: [String],
        _ options: [String], _ texts: [String]
    ) -> String {
        let how: String
        if let option = culprit.option {
            how = "To give \(option) a value that starts with -, write it after =: \(option)=\(quoted(culprit.word))"
        } else if command == Burrow.self {
            how = "A title or path that starts with - goes after --, as in: burrow add -- \(quoted(culprit.word))"
        } else {
            how = "A title or path that starts with - goes after --: " + (words + options + ["--"] + texts).map(quoted).joined(separator: " ")
        }
        return """
            Error: Unknown option '\(culprit.word)'.
            \(how)
            Usage: \(usageString(for: command))
              See '\(words.joined(separator: " ")) --help' for more information.
            """
    }

    /// `word` as a shell reads it back: bare when it is plain, else in single quotes.
    private static func quoted(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy {
                ($0.properties.isAlphabetic || $0.properties.numericType != nil) && $0.isASCII || "-_./:=+,@%".unicodeScalars.contains($0)
            }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
