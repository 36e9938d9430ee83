/// What an Org headline says beyond its stars, as Emacs's `org-element` reads it: the TODO keyword (the
/// item's state), the priority cookie, the title; and from the lines right below it, the planning line
/// (`SCHEDULED:`, `DEADLINE:`, `CLOSED:`) and the property drawer; the tags at the headline's end
/// (`:work:home:`).
struct OrgHead: Equatable {
    var state: [UInt8]?
    var isDone = false
    var priority: [UInt8]?
    var title: [UInt8] = []
    /// The tags, in order, each without colons.
    var tags: [String] = []
    var scheduled: String?
    var deadline: String?
    var closed: String?
    /// The drawer's lines between `:PROPERTIES:` and `:END:`, each without its indentation.
    var properties: [[UInt8]]?

    /// The head of `node` (its title on one line).
    init(_ node: OutlineNode, keywords: OrgKeywords, title: [UInt8]) {
        let extras = node.extras
        self.title = title
        let state = extras?.state.map { Array($0.utf8) }
        // The state is written when it is a keyword of the file of the right kind (the writer declares the
        // items' states first: see `OrgKeywords.include`); a done item without one gets the done marker.
        if node.isDone {
            self.state = state.flatMap { s in s.withUnsafeBufferPointer { keywords.isDone($0) } ? s : nil } ?? keywords.marker
        } else {
            self.state = state.flatMap { keywords.isTodo($0) ? $0 : nil }
        }
        isDone = node.isDone
        priority = extras?.priority.map { Array($0.utf8) }.flatMap { Self.isPriority($0) ? $0 : nil }
        scheduled = extras?.scheduled.flatMap { OrgTimestamp.kept(Array($0.utf8)) }
        deadline = extras?.deadline.flatMap { OrgTimestamp.kept(Array($0.utf8)) }
        closed = extras?.closed.flatMap { OrgTimestamp.kept(Array($0.utf8)) }
        properties = extras?.properties.map { p in
            // A Logseq property (`id:: 42`, from Markdown) as a drawer's line (`:id: 42`).
            p.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
                guard LogseqBlock.isProperty(line), let colons = line.firstIndex(of: UInt8(ascii: ":")) else { return Array(line) }
                return [UInt8(ascii: ":")] + line[..<colons] + [UInt8(ascii: ":")] + line[(colons + 2)...]
            }.filter(Self.isPropertyLine)
        }
        tags = (extras?.tags ?? []).map(Self.orgTag)
    }

    private init() {}

    /// The extras this head gives an item (nil when it says nothing beyond title and done).
    var extras: OutlineNode.Extras? {
        func text(_ b: [UInt8]?) -> String? { b.map { String(decoding: $0, as: UTF8.self) } }
        let e = OutlineNode.Extras(
            state: text(state), priority: text(priority), scheduled: scheduled, deadline: deadline, closed: closed,
            properties: properties.map { lines in String(decoding: Array(lines.joined(separator: [0x0A])), as: UTF8.self) }, tags: tags)
        return e.isEmpty ? nil : e
    }

    /// Reads the headline's text after its stars and space, then the planning line and property drawer
    /// among the first of `section`'s lines; returns the head and how many lines of the section it took.
    static func read(_ headline: [UInt8], section: (Int) -> [UInt8]?, keywords: OrgKeywords) -> (OrgHead, Int) {
        var head = OrgHead()
        var i = 0
        let n = headline.count
        func literal() -> Bool {
            guard headline[i...].starts(with: OrgOutline.zeroWidthSpace) else { return false }
            i += OrgOutline.zeroWidthSpace.count
            return true
        }
        if !literal() {
            var start = 0
            while start < n, headline[start] == space || headline[start] == tab { start += 1 }
            var end = start
            while end < n, headline[end] != space { end += 1 }
            // A keyword then a space, or the keyword alone (`* TODO`: a task with an empty title, as Emacs reads it).
            if end > start {
                let word = Array(headline[start..<end])
                let isDone = word.withUnsafeBufferPointer { keywords.isDone($0) }
                if isDone || keywords.isTodo(word) {
                    head.state = word
                    head.isDone = isDone
                    i = min(end + 1, n)
                }
            }
            if !literal(), let (cookie, length) = priorityCookie(headline[i...]) {
                head.priority = cookie
                i += length
                while i < n, headline[i] == space || headline[i] == tab { i += 1 }
                _ = literal()
            }
        }
        head.title = Array(headline[i...])
        // A group with a tag Burrow cannot hold (over 100 characters) stays title.
        if let (tags, start) = tagsAtEnd(head.title[...]), tags.allSatisfy({ Tag.problem(with: $0) == nil }) {
            head.tags = tags
            var end = start
            while end > 0, head.title[end - 1] == space || head.title[end - 1] == tab { end -= 1 }
            head.title.removeSubrange(end...)
        }
        // The writer's mark after a title that ends as tags would, or in a blank before tags, or in the mark
        // (see `lines`).
        if head.title.count > zeroWidthSpace.count, head.title.suffix(zeroWidthSpace.count).elementsEqual(zeroWidthSpace) {
            let before = head.title.dropLast(zeroWidthSpace.count)
            if tagsAtEnd(before) != nil || (!head.tags.isEmpty && (before.last == space || before.last == tab))
                || before.suffix(zeroWidthSpace.count).elementsEqual(zeroWidthSpace)
            {
                head.title.removeLast(zeroWidthSpace.count)
            }
        }
        var taken = 0
        if let line = section(0), let planning = planning(line) {
            head.scheduled = planning.scheduled
            head.deadline = planning.deadline
            head.closed = planning.closed
            taken = 1
        }
        if let line = section(taken), trimmed(line).elementsEqual(":PROPERTIES:".utf8) {
            var inner: [[UInt8]] = []
            var k = taken + 1
            while let line = section(k) {
                let t = trimmed(line)
                if t.elementsEqual(":END:".utf8) {
                    head.properties = inner
                    taken = k + 1
                    break
                }
                guard isPropertyLine(Array(t)) else { break }
                inner.append(Array(line.drop { $0 == space || $0 == tab }))
                k += 1
            }
        }
        return (head, taken)
    }

    /// The headline's text after the stars and the lines below it that `read` takes, as the writer writes
    /// them for an item `depth` levels down (its planning and drawer lines indented to its title).
    func lines(depth: Int, keywords: OrgKeywords) -> [[UInt8]] {
        var first: [UInt8] = []
        if let state {
            first += state
            // A space even before an empty title, as Emacs writes it (`* DONE` alone reads the same).
            first.append(space)
        }
        if let priority {
            first += Array("[#".utf8) + priority + Array("]".utf8)
            if !title.isEmpty { first.append(space) }
        }
        if needsEscape(keywords) { first += OrgOutline.zeroWidthSpace }
        first += title
        // A title that ends as tags would is marked, so that it is read back as title; so is one that ends in
        // a blank before tags (the blanks before tags are not title), or in the mark itself.
        if Self.tagsAtEnd(title[...]) != nil || (!tags.isEmpty && (title.last == space || title.last == tab))
            || title.suffix(zeroWidthSpace.count).elementsEqual(zeroWidthSpace)
        {
            first += zeroWidthSpace
        }
        if !tags.isEmpty {
            let text = Array((":" + tags.joined(separator: ":") + ":").utf8)
            // As Emacs aligns them (`org-tags-column` -77): ending at column 77 when the line leaves room.
            let used = depth + 2 + Self.width(String(decoding: first, as: UTF8.self))
            let width = Self.width(String(decoding: text, as: UTF8.self))
            if !first.isEmpty || used + width < 77 { first += [UInt8](repeating: space, count: max(1, 77 - used - width)) }
            first += text
        }
        var out = [first]
        // Under the title: past the stars and their space.
        let indent = [UInt8](repeating: space, count: depth + 2)
        var planning: [String] = []
        // Emacs adds each at the end of the line, so the order is the order they were set: closing comes
        // last in time but Org puts CLOSED first; scheduling usually precedes a deadline.
        if let closed { planning.append("CLOSED: [" + OrgTimestamp.inside(closed) + "]") }
        if let scheduled { planning.append("SCHEDULED: <" + OrgTimestamp.inside(scheduled) + ">") }
        if let deadline { planning.append("DEADLINE: <" + OrgTimestamp.inside(deadline) + ">") }
        if !planning.isEmpty { out.append(indent + Array(planning.joined(separator: " ").utf8)) }
        if let properties {
            out.append(indent + Array(":PROPERTIES:".utf8))
            for line in properties { out.append(indent + line) }
            out.append(indent + Array(":END:".utf8))
        }
        return out
    }

    /// How many columns Emacs gives `text` (`string-width`): two for a wide East Asian character or an
    /// emoji, none for a combining mark or a format character (the zero-width space), one for the rest.
    static func width(_ text: String) -> Int {
        var n = 0
        for u in text.unicodeScalars {
            switch u.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format: continue
            default: break
            }
            let v = u.value
            let wide =
                (0x1100...0x115F).contains(v) || (0x2E80...0x303E).contains(v) || (0x3041...0x33FF).contains(v)
                || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xA000...0xA4CF).contains(v)
                || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v)
                || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v)
                || (0x1F900...0x1F9FF).contains(v) || (0x20000...0x3FFFD).contains(v)
            n += wide ? 2 : 1
        }
        return n
    }

    /// Whether the title, written after what comes before it, would be read as more than a title: a
    /// keyword or a priority cookie at its start, blanks after a cookie, or the escape mark itself.
    private func needsEscape(_ keywords: OrgKeywords) -> Bool {
        if title.starts(with: OrgOutline.zeroWidthSpace) { return true }
        if priority != nil { return title.first == space || title.first == tab }
        if priorityCookie(title[...]) != nil { return true }
        guard state == nil else { return false }
        return title.withUnsafeBufferPointer { keywords.keyword(in: $0, 0..<$0.count, orEnd: true) != nil }
    }

    /// `[#A]` at the start of `text` (any one character between `[#` and `]`, as Emacs takes it): the
    /// character and the cookie's length.
    private static func priorityCookie(_ text: ArraySlice<UInt8>) -> ([UInt8], Int)? {
        guard text.starts(with: Array("[#".utf8)) else { return nil }
        let start = text.startIndex + 2
        guard start < text.endIndex else { return nil }
        let lead = text[start]
        let length = lead < 0x80 ? 1 : lead >> 5 == 0b110 ? 2 : lead >> 4 == 0b1110 ? 3 : lead >> 3 == 0b11110 ? 4 : 0
        let close = start + length
        guard length > 0, close < text.endIndex, text[close] == UInt8(ascii: "]"), lead != 0x0A, lead != UInt8(ascii: "]") else { return nil }
        return (Array(text[start..<close]), length + 3)
    }

    private func priorityCookie(_ text: ArraySlice<UInt8>) -> ([UInt8], Int)? { Self.priorityCookie(text) }

    /// The tags ending `text` (`:a:b:` after a blank, or the whole text), and where that group starts; nil
    /// when it does not end with tags. Blanks after them are allowed, as Org allows them.
    static func tagsAtEnd(_ text: ArraySlice<UInt8>) -> ([String], Int)? {
        var end = text.endIndex
        while end > text.startIndex, text[end - 1] == space || text[end - 1] == tab { end -= 1 }
        var start = end
        while start > text.startIndex, text[start - 1] != space, text[start - 1] != tab { start -= 1 }
        guard end - start >= 3, text[start] == colon, text[end - 1] == colon else { return nil }
        let group = String(decoding: text[start..<end], as: UTF8.self)
        guard group.allSatisfy({ $0 == ":" || isTagCharacter($0) }) else { return nil }
        let tags = group.split(separator: ":").map(String.init)
        guard !tags.isEmpty else { return nil }
        return (tags, start - text.startIndex)
    }

    /// A character Org allows in a tag (`[[:alnum:]_@#%]`).
    static func isTagCharacter(_ c: Character) -> Bool {
        c.isLetter || c.isNumber || c == "_" || c == "@" || c == "#" || c == "%"
    }

    /// A tag as Org can hold it: each character Org does not allow in a tag (a space, `-`) becomes `_`.
    static func orgTag(_ tag: String) -> String {
        String(tag.map { isTagCharacter($0) ? $0 : "_" })
    }

    /// Whether `p` can be a priority: one character that the cookie can hold.
    static func isPriority(_ p: [UInt8]) -> Bool {
        guard let (cookie, _) = priorityCookie((Array("[#".utf8) + p + Array("]".utf8))[...]) else { return false }
        return cookie == p
    }

    /// The timestamps of a planning line: only `SCHEDULED:`, `DEADLINE:` and `CLOSED:`, each once, each
    /// with one timestamp that reads, and blanks; nil for any other line.
    static func planning(_ line: [UInt8]) -> (scheduled: String?, deadline: String?, closed: String?)? {
        var i = 0
        let n = line.count
        var found: [String: String] = [:]
        while true {
            while i < n, line[i] == space || line[i] == tab { i += 1 }
            if i == n { break }
            guard let name = ["SCHEDULED:", "DEADLINE:", "CLOSED:"].first(where: { line[i...].starts(with: Array($0.utf8)) }),
                found[name] == nil
            else { return nil }
            i += name.utf8.count
            while i < n, line[i] == space || line[i] == tab { i += 1 }
            guard i < n, line[i] == UInt8(ascii: "<") || line[i] == UInt8(ascii: "[") else { return nil }
            let close = line[i] == UInt8(ascii: "<") ? UInt8(ascii: ">") : UInt8(ascii: "]")
            guard let end = line[(i + 1)...].firstIndex(of: close) else { return nil }
            // A timestamp Emacs reads though it is not one Burrow keeps whole (`+1yr`, `1700`, a weekday in
            // another script twice): its day, the line kept as the file had it (`orgHead`).
            let inner = line[(i + 1)..<end]
            guard let kept = OrgTimestamp.kept(inner) ?? Self.day(startingWith: inner) else { return nil }
            found[name] = kept
            i = end + 1
            // A range (`<…>--<…>`): planned or due from its start, as Emacs reads it.
            if i + 2 < n, line[i] == UInt8(ascii: "-"), line[i + 1] == UInt8(ascii: "-"),
                line[i + 2] == UInt8(ascii: "<") || line[i + 2] == UInt8(ascii: "["),
                let rangeEnd = line[(i + 3)...].firstIndex(of: line[i + 2] == UInt8(ascii: "<") ? UInt8(ascii: ">") : UInt8(ascii: "]"))
            {
                i = rangeEnd + 1
            }
        }
        guard !found.isEmpty else { return nil }
        return (found["SCHEDULED:"], found["DEADLINE:"], found["CLOSED:"])
    }

    /// The day `2026-05-01` a timestamp's text starts with (then a blank or its end), if it is a real day.
    static func day(startingWith inner: ArraySlice<UInt8>) -> String? {
        let head = inner.prefix(10)
        guard head.count == 10, inner.count == 10 || inner[inner.startIndex + 10] == space,
            let kept = OrgTimestamp.kept(head), kept.count == 10
        else { return nil }
        return kept
    }

    /// `:NAME:` then nothing or a blank and a value: a line of a property drawer (already without its
    /// indentation).
    private static func isPropertyLine(_ t: [UInt8]) -> Bool {
        guard t.first == UInt8(ascii: ":"), let close = t.dropFirst().firstIndex(of: UInt8(ascii: ":")), close > 1 else { return false }
        guard !t[1..<close].contains(where: { $0 == space || $0 == tab }) else { return false }
        return close + 1 == t.count || t[close + 1] == space || t[close + 1] == tab
    }

    private static func trimmed(_ line: [UInt8]) -> ArraySlice<UInt8> {
        var s = line[...]
        while let f = s.first, f == space || f == tab { s = s.dropFirst() }
        while let l = s.last, l == space || l == tab { s = s.dropLast() }
        return s
    }
}

private let space = UInt8(ascii: " ")
private let tab = UInt8(ascii: "\t")
private let colon = UInt8(ascii: ":")
private let zeroWidthSpace = OrgOutline.zeroWidthSpace
