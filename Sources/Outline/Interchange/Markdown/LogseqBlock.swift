/// What a Markdown list item's first paragraph says beyond its title, as Logseq writes a block: a task
/// marker (`TODO`, `DOING`, `DONE`, `NOW`, `LATER`, `WAITING`, `CANCELED`) and a priority (`[#A]`) at its
/// start, `#tag` and `#[[two words]]` at its end, and lines under the first that are a planning line
/// (`SCHEDULED: <2026-05-01 Fri>`, `DEADLINE: …`) or a property (`collapsed:: true`). A `#word` inside the
/// text is the title's text (Logseq would link it too: see docs/FORMATS.md).
enum LogseqBlock {
    /// Logseq's task markers, with whether each means done.
    static let markers: [(word: String, isDone: Bool)] = [
        ("TODO", false), ("DOING", false), ("NOW", false), ("LATER", false), ("WAITING", false), ("WAIT", false),
        ("IN-PROGRESS", false), ("DONE", true), ("CANCELED", true), ("CANCELLED", true)
    ]

    /// Whether `state` is a marker that means done.
    static func isDone(_ state: String) -> Bool { markers.contains { $0.word == state && $0.isDone } }

    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")

    /// The lines of a title paragraph (each without its indentation) split into the title's lines and the
    /// extras of the lines that are planning or properties (the first line is always title).
    static func split(_ lines: [ArraySlice<UInt8>]) -> (title: [ArraySlice<UInt8>], extras: OutlineNode.Extras?) {
        var title: [ArraySlice<UInt8>] = []
        var extras = OutlineNode.Extras()
        var properties: [String] = []
        for (n, line) in lines.enumerated() {
            if n > 0, let planning = OrgHead.planning(Array(line)),
                extras.scheduled == nil || planning.scheduled == nil, extras.deadline == nil || planning.deadline == nil
            {
                extras.scheduled = planning.scheduled ?? extras.scheduled
                extras.deadline = planning.deadline ?? extras.deadline
                extras.closed = planning.closed ?? extras.closed
                continue
            }
            if n > 0, isProperty(line) {
                properties.append(String(decoding: line, as: UTF8.self))
                continue
            }
            title.append(line)
        }
        if !properties.isEmpty { extras.properties = properties.joined(separator: "\n") }
        return (title, extras.isEmpty ? nil : extras)
    }

    /// The name of a drawer line, `:LOGBOOK:` (letters, digits, `_`, `-` between colons, blanks after).
    static func drawerName(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        var t = line.drop { $0 == space || $0 == tab }
        while let last = t.last, last == space || last == tab { t = t.dropLast() }
        guard t.count > 2, t.first == UInt8(ascii: ":"), t.last == UInt8(ascii: ":") else { return nil }
        let inner = t.dropFirst().dropLast()
        let isName = inner.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2D
        }
        return isName ? inner : nil
    }

    /// `:END:` (any case), which closes a drawer.
    static func isDrawerEnd(_ line: ArraySlice<UInt8>) -> Bool {
        drawerName(line).map { Array($0).map { $0 | 0x20 } == Array("end".utf8) } ?? false
    }

    /// Where a drawer opens among a title paragraph's lines: a line after the first that is `:NAME:` alone
    /// (Logseq's `:LOGBOOK:` of clocked time). Whether it closes is for the reader to find (see
    /// `MarkdownReader.drawer(in:column:source:)`).
    static func drawerOpening(_ lines: [ArraySlice<UInt8>]) -> Int? {
        guard lines.count > 1 else { return nil }
        return (1..<lines.count).first { n in drawerName(lines[n]) != nil && !isDrawerEnd(lines[n]) }
    }

    /// `key:: value` (or `key::` alone): a word of letters, digits, `-` and `_`, then `::`.
    static func isProperty(_ line: ArraySlice<UInt8>) -> Bool {
        var i = line.startIndex
        while i < line.endIndex, isKeyByte(line[i]) { i += 1 }
        guard i > line.startIndex, line[i...].starts(with: [0x3A, 0x3A]) else { return false }
        let after = i + 2
        return after == line.endIndex || line[after] == space || line[after] == tab
    }

    /// A byte of a property's name: letters and digits of any script, `-`, `_`, `.` (`logseq.order-list-type`), `/`.
    private static func isKeyByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b >= 0x80
            || b == UInt8(ascii: "-") || b == UInt8(ascii: "_") || b == UInt8(ascii: ".") || b == UInt8(ascii: "/")
    }

    /// The marker and priority at the start of `title` (already unescaped), taken off, and the tags in it
    /// (left in it). A title starting with the writer's mark (a zero-width space) is only a title.
    static func read(title: String, extras: OutlineNode.Extras?) -> (title: String, extras: OutlineNode.Extras?, isDone: Bool) {
        var e = extras ?? OutlineNode.Extras()
        let front = front(Substring(title))
        e.state = front.state
        e.priority = front.priority
        // Tags after the text are the item's, not its title's (a row shows them after it); a mark at the
        // text's end says that what ends it only looks like tags.
        let ending = trailingTokens(front.rest)
        var text = ending.rest
        // Obsidian's dates are the item's (a done date makes it done); a planning line under says the same.
        for (field, day) in ending.dates { field.set(day, in: &e) }
        if text.hasSuffix(mark) { text = Substring(text.unicodeScalars.dropLast()) }
        e.tags = ending.tags
        let isDone = front.state.map(isDone) ?? ending.dates.contains { $0.0 == .closed }
        return (String(text), e.isEmpty ? nil : e, isDone)
    }

    /// The marker and priority at the start of `text`, and the rest (without the mark, when it is first
    /// after them: there it says that what follows is text).
    static func front(_ text: Substring) -> (state: String?, priority: String?, rest: Substring) {
        var text = text
        var state: String?
        var priority: String?
        if !text.hasPrefix(mark) {
            if let (word, _) = markers.first(where: { text.hasPrefix($0.word + " ") }) {
                state = word
                text = text.dropFirst(word.count + 1)
            }
            if text.hasPrefix("[#"), text.count >= 4, let p = text.dropFirst(2).first, p.isASCII, p.isLetter,
                text.dropFirst(3).first == "]", text.count == 4 || text.dropFirst(4).first == " "
            {
                priority = String(p)
                text = text.dropFirst(4).drop { $0 == " " }
            }
        }
        if text.hasPrefix(mark) { text = Substring(text.unicodeScalars.dropFirst()) }
        return (state, priority, text)
    }

    /// The dates Obsidian Tasks writes after a task.
    enum DateField: Sendable, Equatable {
        case deadline, scheduled, closed

        /// The field of `extras` it sets.
        func set(_ day: String, in extras: inout OutlineNode.Extras) {
            switch self {
            case .deadline: if extras.deadline == nil { extras.deadline = day }
            case .scheduled: if extras.scheduled == nil { extras.scheduled = day }
            case .closed: if extras.closed == nil { extras.closed = day }
            }
        }
    }

    /// Obsidian Tasks' signs: due, scheduled, done.
    static let dateSigns: [(sign: String, field: DateField)] = [("📅", .deadline), ("⏳", .scheduled), ("✅", .closed)]

    /// The run of tags and Obsidian Tasks' dates (`📅 2026-12-01`) ending `text`, and the text before it; a
    /// text of them alone is a title.
    static func trailingTokens(_ text: Substring) -> (rest: Substring, tags: [String], dates: [(DateField, String)]) {
        guard text.contains("#") || dateSigns.contains(where: { text.contains($0.sign) }) else { return (text, [], []) }
        var words = text.split(separator: " ", omittingEmptySubsequences: false)
        var found: [String] = []
        var dates: [(DateField, String)] = []
        while words.count > 1, let last = words.last, !last.hasSuffix(mark) {
            if words.count > 2, let sign = dateSigns.first(where: { words[words.count - 2] == $0.sign }),
                let day = OrgTimestamp.kept(Array(last.utf8)[...]), day.count == 10, !dates.contains(where: { $0.0 == sign.field })
            {
                dates.append((sign.field, day))
                words.removeLast(2)
            } else if last.hasSuffix("]]"), let start = words.lastIndex(where: { $0.hasPrefix("#[[") }) {
                let tag = String(words[start...].joined(separator: " ").dropFirst(3).dropLast(2))
                guard start > 0, Tag.problem(with: tag) == nil, !tag.contains("[["), !tag.contains("]]") else { break }
                found.insert(tag, at: 0)
                words.removeSubrange(start...)
            } else if !last.contains("`"), let tag = CaptureLine.tag(String(last)) {
                found.insert(tag, at: 0)
                words.removeLast()
            } else {
                break
            }
            while words.count > 1, words.last == "" { words.removeLast() }
        }
        guard !found.isEmpty || !dates.isEmpty else { return (text, [], []) }
        let rest = words.joined(separator: " ")
        return (text[text.startIndex..<text.index(text.startIndex, offsetBy: rest.count)], found, dates)
    }

    /// How a tag is written in a title: `#work`, or `#[[big project]]` when it holds what ends a `#word`.
    static func written(tag: String) -> String {
        let body = tag.hasPrefix(".") ? tag.dropFirst() : tag[...]
        let plain = CaptureLine.tag("#" + tag) == tag && !body.contains(where: { ",.;:!?)\"'([]".contains($0) || $0.isWhitespace })
        return plain ? "#" + tag : "#[[" + tag + "]]"
    }

    /// The writer's mark (a zero-width space) before a title that would otherwise be read as more than its
    /// text (`TODO call` as a plain item's title); the reader takes it away.
    static let mark = "\u{200B}"

    /// The first line of `node`'s block as Logseq writes it, after the task box of a done item without a
    /// state: its marker (a state Logseq has not is written as `TODO` or `DONE`), its priority, its title
    /// (after the mark when needed), the tags the title does not name; nil when that is the title.
    static func firstLine(of node: OutlineNode, title: String) -> String? {
        let e = node.extras ?? OutlineNode.Extras()
        var prefix = ""
        var state: String?
        if let s = e.state {
            let known = markers.first { $0.word == s }
            state = known.map { $0.isDone == node.isDone } ?? false ? s : node.isDone ? "DONE" : "TODO"
            prefix += state! + " "
        }
        var priority: String?
        if let p = e.priority, p.count == 1, let c = p.first, c.isASCII, c.isLetter {
            prefix += "[#" + p + "] "
            priority = p
        }
        let read = front(Substring(prefix + title))
        var line = read.state == state && read.priority == priority && read.rest == title ? prefix + title : prefix + mark + title
        let ending = trailingTokens(title[...])
        // The mark also keeps a blank at the title's end before the tags written after it.
        let blankEnd = title.unicodeScalars.last.map { [" ", "\t", "\u{0B}", "\u{0C}"].contains($0) } ?? false
        if title.hasSuffix(mark) || !ending.tags.isEmpty || !ending.dates.isEmpty || (blankEnd && !e.tags.isEmpty) { line += mark }
        for tag in e.tags { line += " " + written(tag: tag) }
        return line == title ? nil : line
    }

    /// Whether a plain item's title is written with the mark (it would read as a task or end in tags).
    static func needsMark(_ title: String) -> Bool { firstLine(of: OutlineNode(title), title: title) != nil }

    /// The lines under the first: planning (`SCHEDULED: <2026-05-01 Fri>`), then properties (an Org drawer's
    /// `:ID: 42` as `ID:: 42`; a line that cannot be one is left out).
    static func moreLines(of extras: OutlineNode.Extras?) -> [String] {
        guard let e = extras else { return [] }
        var out: [String] = []
        if let s = e.scheduled { out.append("SCHEDULED: <" + OrgTimestamp.inside(s) + ">") }
        if let d = e.deadline { out.append("DEADLINE: <" + OrgTimestamp.inside(d) + ">") }
        if let c = e.closed { out.append("CLOSED: [" + OrgTimestamp.inside(c) + "]") }
        for line in (e.properties ?? "").split(separator: "\n") {
            var text = Substring(line).drop { $0 == " " || $0 == "\t" }
            if text.hasPrefix(":"), let close = text.dropFirst().firstIndex(of: ":") {
                let key = text[text.index(after: text.startIndex)..<close]
                let value = text[text.index(after: close)...].drop { $0 == " " || $0 == "\t" }
                text = Substring(key + ":: " + value)
            }
            if isProperty(Array(text.utf8)[...]) { out.append(String(text)) }
        }
        return out
    }
}
