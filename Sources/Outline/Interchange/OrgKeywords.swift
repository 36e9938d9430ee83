/// An Org file's TODO keywords, read as Emacs reads them: `TODO` and `DONE`, unless the file's `#+TODO:`,
/// `#+SEQ_TODO:` or `#+TYP_TODO:` lines name others, wherever in the file they stand (after headlines too),
/// except inside a closed source, example, export, comment or verse block. A headline's keyword is its
/// item's state; the done ones mark it done.
struct OrgKeywords {
    /// The done keywords the file's keyword lines name, in the order read; empty when none names any.
    private var named: [[UInt8]] = []
    /// The not-done keywords they name.
    private var namedTodo: [[UInt8]] = []
    /// States the written items have that no keyword line names (`include`): the writer declares them.
    private(set) var undeclaredTodo: [[UInt8]] = []
    private(set) var undeclaredDone: [[UInt8]] = []

    private static let defaultDone: [[UInt8]] = [Array("DONE".utf8)]
    private static let defaultTodo: [[UInt8]] = [Array("TODO".utf8)]

    /// The done keywords in force.
    var done: [[UInt8]] { (named.isEmpty ? Self.defaultDone : named) + undeclaredDone }

    /// The not-done keywords in force: `TODO` while no line names a keyword.
    var todo: [[UInt8]] { (named.isEmpty && namedTodo.isEmpty ? Self.defaultTodo : namedTodo) + undeclaredTodo }

    /// Whether `word` is a not-done keyword.
    func isTodo(_ word: some Collection<UInt8>) -> Bool {
        todo.contains { $0.count == word.count && $0.elementsEqual(word) }
    }

    /// Makes `state` a keyword of the written file: when no keyword in force is that word, the writer
    /// declares it in a keyword line of its own (`keywordLine`).
    mutating func include(state: [UInt8], done isDone: Bool) {
        guard !state.isEmpty, !isTodo(state), !state.withUnsafeBufferPointer({ self.isDone($0) }),
            !state.contains(where: { $0 == space || $0 == tab || $0 == 0x0A || $0 == 0x0D }), state != Array("|".utf8)
        else { return }
        if isDone { undeclaredDone.append(state) } else { undeclaredTodo.append(state) }
    }

    /// `#+TODO: …` declaring the states `include` was given that no line declares, with what is in force
    /// already when the file has no keyword line (a line replaces the defaults); nil when none is needed.
    var keywordLine: [UInt8]? {
        guard !undeclaredTodo.isEmpty || !undeclaredDone.isEmpty else { return nil }
        let declared = !named.isEmpty || !namedTodo.isEmpty
        let todos = (declared ? [] : Self.defaultTodo) + undeclaredTodo
        // A line with nothing after `|` would make its last word done: name a done keyword in force.
        let dones = (declared ? [] : Self.defaultDone) + undeclaredDone
        var out = Array("#+TODO:".utf8)
        for word in todos { out += [space] + word }
        out += Array(" |".utf8)
        for word in dones.isEmpty ? [done[0]] : dones { out += [space] + word }
        return out
    }

    /// The keyword the writer marks a done item with: `DONE` while it is one, else the first one named.
    var marker: [UInt8] {
        let done = self.done
        return done.contains(Self.defaultDone[0]) ? Self.defaultDone[0] : done[0]
    }

    /// Whether `word` is a done keyword (compared exactly: Org's keywords are case-sensitive).
    func isDone(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
        for keyword in done where keyword.count == word.count && keyword.elementsEqual(word) { return true }
        return false
    }

    /// The keyword (either kind) that starts `title` after blanks, with the space after it, and whether it
    /// is a done one; with `orEnd`, also one that ends the title (Emacs reads `* TODO` as a task with an empty
    /// title).
    func keyword(in bytes: UnsafeBufferPointer<UInt8>, _ title: Range<Int>, orEnd: Bool = false)
        -> (range: Range<Int>, word: Range<Int>, isDone: Bool)?
    {
        var start = title.lowerBound
        while start < title.upperBound, bytes[start] == space || bytes[start] == tab { start += 1 }
        var end = start
        while end < title.upperBound, bytes[end] != space { end += 1 }
        guard end < title.upperBound || (orEnd && end == title.upperBound), end > start else { return nil }
        let word = UnsafeBufferPointer(rebasing: bytes[start..<end])
        let taken = start..<min(end + 1, title.upperBound)
        if isDone(word) { return (taken, start..<end, true) }
        if isTodo(word) { return (taken, start..<end, false) }
        return nil
    }

    /// Takes in the keyword lines of one section (the lines between two headlines, or before the first).
    /// A block cannot span sections (a headline ends it), so a section is the unit its blocks are found in.
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, lines: ArraySlice<Range<Int>>) {
        var values: [(line: Int, value: Range<Int>)] = []
        for k in lines.indices {
            if let value = Self.keywordValue(bytes, lines[k]) { values.append((k, value)) }
        }
        guard !values.isEmpty else { return }
        let hidden = Self.closedLiteralBlocks(bytes, lines: lines)
        var h = 0
        for (line, value) in values {
            while h < hidden.count, hidden[h].upperBound <= line { h += 1 }
            if h < hidden.count, hidden[h].contains(line) { continue }
            add(words(bytes, value))
        }
    }

    /// Takes in the keyword lines of a note as the writer will write it (lines split at LF, in a file with
    /// LF line ends, as the reader splits them).
    mutating func scan(note: String) {
        var note = note
        note.withUTF8 { bytes in
            // Most notes hold no keyword line: look for "#+" before splitting into lines.
            guard bytes.count > 1, (1..<bytes.count).contains(where: { bytes[$0] == plus && bytes[$0 - 1] == hash }) else { return }
            scan(bytes, lines: OrgReader.lines(of: bytes, from: 0, crlf: false)[...])
        }
    }

    /// Adds one keyword line's keywords: after its first `|` the done ones, or the last when there is no
    /// `|` or nothing after it. A line naming no keyword is ignored (Emacs would then have none at all, and
    /// a done item could not be written).
    private mutating func add(_ words: [[UInt8]]) {
        let bar = Array("|".utf8)
        guard let first = words.firstIndex(of: bar) else {
            if let last = words.last {
                named.append(last)
                namedTodo += words.dropLast()
            }
            return
        }
        let after = words[(first + 1)...]
        if !after.isEmpty {
            // As Emacs does, a second `|` counts as a keyword too.
            named += after
            namedTodo += words[..<first]
        } else if let last = words[..<first].last {
            named.append(last)
            namedTodo += words[..<first].dropLast()
        }
    }

    /// The keywords of a value, split at blanks, each without its `(…)` of fast-access keys and logging;
    /// none that starts with a zero-width space.
    private func words(_ bytes: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var i = value.lowerBound
        while i < value.upperBound {
            while i < value.upperBound, isBlank(bytes[i]) { i += 1 }
            let start = i
            while i < value.upperBound, !isBlank(bytes[i]) { i += 1 }
            guard i > start else { break }
            var word = Array(bytes[start..<i])
            if word.last == UInt8(ascii: ")"), let open = word.firstIndex(of: UInt8(ascii: "(")) { word.removeSubrange(open...) }
            // A keyword starting with the writer's escape mark would make escaped titles read as done.
            if !word.isEmpty, !word.starts(with: OrgOutline.zeroWidthSpace) { out.append(word) }
        }
        return out
    }

    private func isBlank(_ b: UInt8) -> Bool { b == space || b == tab || b == 0x0B || b == 0x0C || b == 0x0D }

    /// The value of a `#+TODO:`, `#+SEQ_TODO:` or `#+TYP_TODO:` line (indentation allowed, the name in any
    /// case), else nil.
    static func keywordValue(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> Range<Int>? {
        var i = line.lowerBound
        while i < line.upperBound, bytes[i] == space || bytes[i] == tab { i += 1 }
        guard i + 2 < line.upperBound, bytes[i] == hash, bytes[i + 1] == plus else { return nil }
        i += 2
        for name in ["todo:", "seq_todo:", "typ_todo:"] where hasPrefix(bytes, i..<line.upperBound, name) {
            return (i + name.utf8.count)..<line.upperBound
        }
        return nil
    }

    /// The lines strictly inside closed literal blocks (source, example, export, comment, verse: their lines
    /// are text, not Org), in order. A `#+BEGIN_…` line without its `#+END_…` later in the section opens no
    /// block, as in Emacs. Each section's end lines are listed once, so many unclosed blocks cost no more
    /// than their lines.
    static func closedLiteralBlocks(_ bytes: UnsafeBufferPointer<UInt8>, lines: ArraySlice<Range<Int>>) -> [Range<Int>] {
        let names = ["src", "example", "export", "comment", "verse"]
        var ends: [[Int]] = Array(repeating: [], count: names.count)
        for k in lines.indices {
            if let (marker, rest) = blockLine(bytes, lines[k]), marker == "end_", let n = names.firstIndex(where: { isEndName(bytes, rest, $0) }) {
                ends[n].append(k)
            }
        }
        guard ends.contains(where: { !$0.isEmpty }) else { return [] }
        var next = Array(repeating: 0, count: names.count)
        var hidden: [Range<Int>] = []
        var k = lines.startIndex
        while k < lines.endIndex {
            defer { k += 1 }
            guard let (marker, rest) = blockLine(bytes, lines[k]), marker == "begin_",
                let n = names.firstIndex(where: { isBeginName(bytes, rest, $0) })
            else { continue }
            while next[n] < ends[n].count, ends[n][next[n]] <= k { next[n] += 1 }
            guard next[n] < ends[n].count else { continue }
            let end = ends[n][next[n]]
            hidden.append((k + 1)..<end)
            k = end
        }
        return hidden
    }

    /// "begin_" or "end_" and what follows it, for a line `#+BEGIN_…` or `#+END_…` (indentation allowed).
    private static func blockLine(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> (String, Range<Int>)? {
        var i = line.lowerBound
        while i < line.upperBound, bytes[i] == space || bytes[i] == tab { i += 1 }
        guard i + 2 < line.upperBound, bytes[i] == hash, bytes[i + 1] == plus else { return nil }
        i += 2
        for marker in ["begin_", "end_"] where hasPrefix(bytes, i..<line.upperBound, marker) {
            return (marker, (i + marker.utf8.count)..<line.upperBound)
        }
        return nil
    }

    /// `name` then a blank or the line's end: `#+BEGIN_SRC python`.
    private static func isBeginName(_ bytes: UnsafeBufferPointer<UInt8>, _ rest: Range<Int>, _ name: String) -> Bool {
        let end = rest.lowerBound + name.utf8.count
        return hasPrefix(bytes, rest, name) && (end == rest.upperBound || bytes[end] == space || bytes[end] == tab)
    }

    /// `name` then only blanks: `#+END_SRC`.
    private static func isEndName(_ bytes: UnsafeBufferPointer<UInt8>, _ rest: Range<Int>, _ name: String) -> Bool {
        guard hasPrefix(bytes, rest, name) else { return false }
        return bytes[(rest.lowerBound + name.utf8.count)..<rest.upperBound].allSatisfy { $0 == space || $0 == tab }
    }

    /// Whether the bytes in `range` start with the ASCII `lowercase`, compared without case.
    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ lowercase: String) -> Bool {
        guard range.count >= lowercase.utf8.count else { return false }
        for (k, c) in lowercase.utf8.enumerated() {
            let b = bytes[range.lowerBound + k]
            guard b == c || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") && b | 0x20 == c) else { return false }
        }
        return true
    }
}

private let space = UInt8(ascii: " ")
private let tab = UInt8(ascii: "\t")
private let hash = UInt8(ascii: "#")
private let plus = UInt8(ascii: "+")
