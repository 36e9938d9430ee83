import BurrowSettings
import Foundation
import TOMLKit
import TerminalKit

/// Reads a config file's text into a `Configuration`: TOMLKit parses it (a syntax error leaves everything at
/// its default), then each setting is checked on its own, and one that is wrong keeps its default and adds a
/// problem at the line and column `SourceMap` finds for it.
struct ConfigReader {
    let text: String
    let environment: [String: String]
    private var config = Configuration()
    private var map = SourceMap("")

    /// The top-level settings, in the order messages list them.
    static let settingNames = ["database", "hide-done", "osc52", "sync-url", "history", "keys", "colors"]

    init(text: String, environment: [String: String]) {
        self.text = text
        self.environment = environment
    }

    func read() -> Configuration {
        var reader = self
        reader.readAll()
        reader.config.problems.sort { ($0.position ?? .init(line: 0, column: 0)) < ($1.position ?? .init(line: 0, column: 0)) }
        return reader.config
    }

    private mutating func problem(_ message: String, at position: SourcePosition) {
        config.problems.append(ConfigProblem(message, at: position))
    }

    private mutating func readAll() {
        // TOMLKit hands the text to C as a C string, which would end at a NUL byte and read only what is before.
        if let nul = text.unicodeScalars.firstIndex(of: "\u{0}") {
            problem("the file holds a NUL character; nothing in it was used", at: position(of: nul))
            return
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let at = SourcePosition(line: max(1, error.source.begin.line), column: max(1, error.source.begin.column))
            problem("\(Sanitizer.visible(error.description)); nothing in the file was used", at: at)
            return
        } catch {
            problem("\(Sanitizer.visible("\(error)")); nothing in the file was used", at: SourcePosition(line: 1, column: 1))
            return
        }
        map = SourceMap(text)
        // TOMLKit cuts a string at U+0000, so such a key or value would be read as another one.
        if !map.nulStrings.isEmpty {
            for at in map.nulStrings { problem("a string holds U+0000, which no setting can use; nothing in the file was used", at: at) }
            return
        }
        for name in table.keys {
            guard let value = table[name] else { continue }
            let path: [SourceMap.Step] = [.key(name)]
            switch name {
            case "database": readDatabase(value, at: path)
            case "hide-done": readBool(value, at: path, into: \.hideDone)
            case "osc52": readBool(value, at: path, into: \.osc52)
            case "sync-url": readSyncURL(value, at: path)
            case "history": readHistory(value, at: path)
            case "keys": readKeys(value, at: path)
            case "colors": readColors(value, at: path)
            default:
                problem(
                    "unknown setting “\(Sanitizer.visible(name))” (the settings are \(Self.settingNames.joined(separator: ", ")))",
                    at: map.keyPosition(of: path))
            }
        }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { config.theme = config.theme.withoutColors }
    }

    /// The position of a scalar of `text`, as toml++ would give it.
    private func position(of index: String.UnicodeScalarView.Index) -> SourcePosition {
        var line = 1, column = 1
        for c in text.unicodeScalars[..<index] {
            if c == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return SourcePosition(line: line, column: column)
    }

    // MARK: Settings

    private mutating func readBool(_ value: any TOMLValueConvertible, at path: [SourceMap.Step], into setting: WritableKeyPath<Configuration, Bool>) {
        guard let b = value.bool else {
            problem("\(Self.name(path)) must be true or false, not \(Self.kind(value))", at: map.position(of: path))
            return
        }
        config[keyPath: setting] = b
    }

    private mutating func readSyncURL(_ value: any TOMLValueConvertible, at path: [SourceMap.Step]) {
        let at = map.position(of: path)
        // Never the value in a message: it may hold a password.
        guard let raw = value.string else {
            problem("sync-url must be a postgres:// URL in quotes, not \(Self.kind(value))", at: at)
            return
        }
        guard raw.hasPrefix("postgres://") || raw.hasPrefix("postgresql://") else {
            problem("sync-url must start with postgres:// (the value is not shown: it may hold a password)", at: at)
            return
        }
        config.syncURL = raw
        config.syncURLPosition = at
    }

    private mutating func readDatabase(_ value: any TOMLValueConvertible, at path: [SourceMap.Step]) {
        let at = map.position(of: path)
        guard let raw = value.string else {
            problem("database must be a path in quotes, not \(Self.kind(value))", at: at)
            return
        }
        if raw.hasPrefix("/") {
            config.database = raw
        } else if raw == "~" || raw.hasPrefix("~/"), let home = environment["HOME"], home.hasPrefix("/") {
            config.database = home + raw.dropFirst()
        } else if raw.isEmpty {
            problem("database is empty: give a path, or leave the line out for the default", at: at)
        } else {
            problem("database must be an absolute path or start with ~/, not “\(Sanitizer.visible(raw))”", at: at)
        }
    }

    // MARK: [history]

    // TOMLKit 0.6.0's scalar accessors leak a few bytes each (see .ci/lsan-suppressions.txt): fine for a
    // file read once per run.
    private mutating func readHistory(_ value: any TOMLValueConvertible, at path: [SourceMap.Step]) {
        guard let table = value.table else {
            problem("history must be a table: a [history] line, then actions = 10000 and size = \"64 MiB\"", at: map.position(of: path))
            return
        }
        for name in table.keys {
            guard let value = table[name] else { continue }
            let entry = path + [.key(name)]
            switch name {
            case "actions":
                guard let n = value.int, (1...10_000_000).contains(n) else {
                    problem("history.actions must be a whole number from 1 to 10000000", at: map.position(of: entry))
                    continue
                }
                config.historyLimits.actions = n
            case "size":
                guard let bytes = Self.size(value), bytes >= 64 << 10 else {
                    problem("history.size must be a size of at least 64 KiB, such as \"64 MiB\"", at: map.position(of: entry))
                    continue
                }
                config.historyLimits.bytes = bytes
            default:
                problem("unknown history setting “\(Sanitizer.visible(name))” (they are actions and size)", at: map.keyPosition(of: entry))
            }
        }
    }

    /// A number of bytes: a whole number, or a string such as "64 MiB" (B, KiB, MiB, GiB; KB, MB and GB
    /// are read as the same powers of two).
    static func size(_ value: any TOMLValueConvertible) -> Int? {
        if let n = value.int { return n }
        guard let s = value.string?.trimmingCharacters(in: .whitespaces) else { return nil }
        let digits = s.prefix { $0.isASCII && $0.isNumber }
        guard let n = Int(digits), n <= 1 << 40 else { return nil }
        let unit = s.dropFirst(digits.count).trimmingCharacters(in: .whitespaces).lowercased()
        let shift: Int
        switch unit {
        case "", "b": shift = 0
        case "k", "kb", "kib": shift = 10
        case "m", "mb", "mib": shift = 20
        case "g", "gb", "gib": shift = 30
        default: return nil
        }
        let (bytes, overflow) = n.multipliedReportingOverflow(by: 1 << shift)
        return overflow || bytes > 1 << 40 ? nil : bytes
    }

    // MARK: [keys]

    private mutating func readKeys(_ value: any TOMLValueConvertible, at path: [SourceMap.Step]) {
        guard let table = value.table else {
            problem("keys must be a table: a [keys] line, then command = \"key\" lines", at: map.position(of: path))
            return
        }
        var entries: [KeyEntry] = []
        readKeyTable(table, context: .browse, at: path, into: &entries)
        entries.sort { $0.position < $1.position }
        config.keymap = resolveConflicts(entries)
    }

    /// One context's table: `[keys]` (which also holds the other contexts' tables, `[keys.search-line]`…) or
    /// one of those.
    private mutating func readKeyTable(_ table: TOMLTable, context: KeyContext, at path: [SourceMap.Step], into entries: inout [KeyEntry]) {
        let allowed = Keymap.commands(in: context)
        for name in table.keys {
            guard let value = table[name] else { continue }
            let entryPath = path + [.key(name)]
            if context == .browse, let inner = KeyContext(rawValue: name), inner != .browse {
                guard let innerTable = value.table else {
                    problem("\(inner.table) must be a table: a [\(inner.table)] line, then command = \"key\" lines", at: map.position(of: entryPath))
                    continue
                }
                readKeyTable(innerTable, context: inner, at: entryPath, into: &entries)
                continue
            }
            guard let command = Command(rawValue: name) else {
                let table = context == .browse ? "" : " in [\(context.table)]"
                problem("unknown command “\(Sanitizer.visible(name))”\(table) (burrow config default lists them)", at: map.keyPosition(of: entryPath))
                continue
            }
            guard allowed.contains(command) else {
                let homes = KeyContext.allCases.filter { Keymap.commands(in: $0).contains(command) }.map { "[\($0.table)]" }
                problem("\(name) has no key in [\(context.table)]: it goes in \(homes.joined(separator: " or "))", at: map.keyPosition(of: entryPath))
                continue
            }
            if let entry = readKeyList(value, for: command, in: context, at: entryPath) { entries.append(entry) }
        }
    }

    /// One command's keys: a string or a list of strings, each one key in notation. Nil when any is wrong.
    private mutating func readKeyList(
        _ value: any TOMLValueConvertible, for command: Command, in context: KeyContext, at path: [SourceMap.Step]
    ) -> KeyEntry? {
        var strings: [(String, [SourceMap.Step])] = []
        if let s = value.string {
            strings = [(s, path)]
        } else if let array = value.array {
            for i in 0..<array.count {
                guard let s = array[i].string else {
                    problem(
                        "a key must be in quotes, such as \"j\" or \"<C-r>\", not \(Self.kind(array[i]))", at: map.position(of: path + [.index(i)]))
                    return nil
                }
                strings.append((s, path + [.index(i)]))
            }
        } else {
            problem("\(command.rawValue) must be a key in quotes or a list of them, not \(Self.kind(value))", at: map.position(of: path))
            return nil
        }
        var keys: [(key: [Key], position: SourcePosition)] = []
        for (s, keyPath) in strings {
            let at = map.position(of: keyPath)
            guard let key = readKey(s, at: at) else { return nil }
            // The app quits on Ctrl-C before it reads the keymap, so another command would never run from it.
            if key.contains(.ctrl("c")), command != .quit || key.count > 1 {
                problem("<C-c> always quits; it cannot run \(command.rawValue)", at: at)
                return nil
            }
            // Only the list waits for a second key; an editor would type the first.
            if key.count > 1 && context != .browse {
                problem("“\(Sanitizer.visible(s))” is several keys: in [\(context.table)] each binding is one key", at: at)
                return nil
            }
            if !keys.contains(where: { $0.key == key }) { keys.append((key, at)) }
        }
        return KeyEntry(context: context, command: command, keys: keys, position: map.keyPosition(of: path))
    }

    /// One key in notation, or a sequence of keys pressed one after the other (`zo`, `<C-x>o`); spaces
    /// inside a string are refused (a list gives several bindings).
    private mutating func readKey(_ s: String, at: SourcePosition) -> [Key]? {
        let shown = Sanitizer.visible(s)
        let keys: [Key]
        do {
            keys = try Key.parseSequence(s)
        } catch {
            problem("unknown key “\(Sanitizer.visible(error.token))” (keys are written as j, J, <C-r>, <S-Up>, <F2>, <Space>…)", at: at)
            return nil
        }
        guard !keys.isEmpty else {
            problem("an empty key: write one such as \"j\" or \"<C-r>\"", at: at)
            return nil
        }
        guard !s.contains(" ") || keys == [.character(" ")] else {
            problem("“\(shown)” has a space: write a sequence as one word (\"zo\"), several keys as a list, and Space as <Space>", at: at)
            return nil
        }
        for key in keys {
            if case .character(let c) = key.code, c.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                problem("“\(shown)” is a control character; write Ctrl keys as <C-x>", at: at)
                return nil
            }
        }
        return keys
    }

    /// The keymap with the entries that bind no key twice where one is read: in one context, or in an editor
    /// and the text keys it also reads (a range's own keys come before the list's by design). A key bound to
    /// two commands is a problem at the later binding (the default keys of commands the file leaves alone
    /// count as earliest), and that entry is dropped, its command keeping its default keys; that may free or
    /// take keys again, so this repeats until nothing is bound twice.
    private mutating func resolveConflicts(_ entries: [KeyEntry]) -> Keymap {
        var active = entries
        while true {
            var overrides: [KeyContext: [Command: [[Key]]]] = [:]
            for e in active { overrides[e.context, default: [:]][e.command] = e.keys.map(\.key) }
            let keymap = Keymap.default.rebinding(overrides)
            var dropped: Set<String> = []
            for group in KeyContext.allCases.map({ $0 == .visual ? [$0] : $0.chain }) {
                for problem in clashes(in: keymap, group: group, active: active) where !dropped.contains(problem.entry) {
                    self.problem(problem.message, at: problem.position)
                    dropped.insert(problem.entry)
                }
            }
            if dropped.isEmpty { return keymap }
            active.removeAll { dropped.contains($0.id) }
        }
    }

    /// Keys bound twice among the contexts of `group`: for each later binding, the entry to drop and why.
    private func clashes(in keymap: Keymap, group: [KeyContext], active: [KeyEntry]) -> [(entry: String, message: String, position: SourcePosition)] {
        typealias Owner = (context: KeyContext, command: Command, position: SourcePosition?)
        var owners: [[Key]: [Owner]] = [:]
        for context in group {
            for binding in keymap.bindings(in: context) {
                let entry = active.first { $0.context == context && $0.command == binding.command }
                for key in binding.sequences where owners[key]?.contains(where: { $0.context == context && $0.command == binding.command }) != true {
                    owners[key, default: []].append((context, binding.command, entry?.keys.first { $0.key == key }?.position))
                }
            }
        }
        // A key that starts a sequence (z of zo) would wait for the next key and never run its own
        // command: it clashes with every sequence it starts.
        for (sequence, list) in owners where sequence.count > 1 {
            for n in 1..<sequence.count {
                if let short = owners[Array(sequence.prefix(n))] {
                    for owner in short where !list.contains(where: { $0.command == owner.command && $0.context == owner.context }) {
                        owners[sequence, default: []].append(owner)
                    }
                }
            }
        }
        func name(_ o: Owner) -> String { o.context == .browse ? o.command.rawValue : "\(o.context.table).\(o.command.rawValue)" }
        var out: [(entry: String, message: String, position: SourcePosition)] = []
        var dropped: Set<String> = []
        for (key, list) in owners.sorted(by: { KeyBinding.label($0.key) < KeyBinding.label($1.key) }) where list.count > 1 {
            let sorted = list.sorted { ($0.position ?? .init(line: 0, column: 0)) < ($1.position ?? .init(line: 0, column: 0)) }
            let first = sorted[0]
            for later in sorted.dropFirst() {
                let id = KeyEntry.id(later.context, later.command)
                guard let at = later.position, !dropped.contains(id) else { continue }
                let earlier =
                    first.position.map { "to \(name(first)) on line \($0.line)" }
                    ?? "to \(name(first)) by default (rebind \(name(first)) too to free it)"
                let what = key.count == 1 ? "is bound twice" : "clashes with a key that starts it or that it starts"
                out.append((id, "“\(key.map(\.description).joined())” \(what): already \(earlier); \(name(later)) keeps its default keys", at))
                dropped.insert(id)
            }
        }
        return out
    }

    // MARK: [colors]

    private mutating func readColors(_ value: any TOMLValueConvertible, at path: [SourceMap.Step]) {
        guard let table = value.table else {
            problem("colors must be a table: a [colors] line, then role = \"colour\" lines", at: map.position(of: path))
            return
        }
        let roles = Theme.Role.allCases.map(\.rawValue).joined(separator: ", ")
        for name in table.keys {
            guard let value = table[name] else { continue }
            let rolePath = path + [.key(name)]
            guard let role = Theme.Role(rawValue: name) else {
                problem("unknown colour role “\(Sanitizer.visible(name))” (the roles are \(roles))", at: map.keyPosition(of: rolePath))
                continue
            }
            if value.string != nil || value.int != nil {
                guard let fg = readColor(value, at: rolePath) else { continue }
                config.theme = config.theme.colored(role, foreground: fg, background: nil)
            } else if let parts = value.table {
                var fg: Color?, bg: Color?, ok = true
                for part in parts.keys {
                    guard let v = parts[part] else { continue }
                    let partPath = rolePath + [.key(part)]
                    switch part {
                    case "fg": fg = readColor(v, at: partPath)
                    case "bg": bg = readColor(v, at: partPath)
                    default:
                        problem("unknown colour part “\(Sanitizer.visible(part))” (fg or bg)", at: map.keyPosition(of: partPath))
                        ok = false
                        continue
                    }
                    if (part == "fg" ? fg : bg) == nil { ok = false }
                }
                if ok { config.theme = config.theme.colored(role, foreground: fg, background: bg) }
            } else {
                problem("\(name) must be a colour or { fg = …, bg = … }, not \(Self.kind(value))", at: map.position(of: rolePath))
            }
        }
    }

    private mutating func readColor(_ value: any TOMLValueConvertible, at path: [SourceMap.Step]) -> Color? {
        let at = map.position(of: path)
        if let n = value.int {
            guard (0...255).contains(n) else {
                problem("colour \(n) is out of range: numbers are 0 to 255", at: at)
                return nil
            }
            return .palette(UInt8(n))
        }
        guard let name = value.string else {
            problem("a colour is a name in quotes or a number from 0 to 255, not \(Self.kind(value))", at: at)
            return nil
        }
        guard let color = Color(configName: name) else {
            problem("unknown colour “\(Sanitizer.visible(name))” (\(Color.configNames.joined(separator: ", ")), or 0 to 255)", at: at)
            return nil
        }
        return color
    }

    // MARK: Words

    /// `keys.moveDown` for messages.
    private static func name(_ path: [SourceMap.Step]) -> String {
        path.map { step in
            switch step {
            case .key(let k): Sanitizer.visible(k)
            case .index(let i): "[\(i)]"
            }
        }.joined(separator: ".")
    }

    /// What a value is, for messages: "a string", "a number".
    private static func kind(_ value: any TOMLValueConvertible) -> String {
        switch value.type {
        case .string: "a string"
        case .int, .double: "a number"
        case .bool: "true or false"
        case .array: "a list"
        case .table: "a table"
        case .date, .time, .dateTime: "a date or time"
        }
    }
}

/// One `[keys]` line that reads well: the context, the command, its keys and where each is written.
private struct KeyEntry {
    let context: KeyContext
    let command: Command
    /// Each binding: one key or a sequence (`zo`).
    let keys: [(key: [Key], position: SourcePosition)]
    let position: SourcePosition

    /// The entry's identity: one per command in each context.
    var id: String { Self.id(context, command) }
    static func id(_ context: KeyContext, _ command: Command) -> String { "\(context.rawValue).\(command.rawValue)" }
}
