/// Where each key and value of a TOML document starts. TOMLKit gives positions only for syntax errors, and a
/// problem in a value (an unknown command, a key bound twice) must say its line and column too, so this reads
/// the document's structure again: keys (bare, quoted, dotted), table headers, strings of the four kinds,
/// arrays and inline tables, comments.
///
/// It runs only on text TOMLKit has parsed, so it need not report errors; on anything it does not expect it
/// moves on one character, so it always ends. Lines and columns count from 1, a column in Unicode scalars, as
/// toml++ counts them.
///
/// For example: in `"[keys]\nmoveDown = [\"j\", \"<Down>\"]"`, `values[[.key("keys"), .key("moveDown"), .index(1)]]`
/// is line 2, column 20.
struct SourceMap {
    /// One step of a path into the document.
    enum Step: Hashable {
        case key(String)
        case index(Int)
    }

    /// Where a key's name starts (for a table, its header).
    private(set) var keys: [[Step]: SourcePosition] = [:]
    /// Where a value starts.
    private(set) var values: [[Step]: SourcePosition] = [:]
    /// Strings (keys or values) that hold U+0000, which TOMLKit cuts short: where each starts.
    private(set) var nulStrings: [SourcePosition] = []

    private let text: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var column = 1
    /// How many `[[name]]` tables each array of tables has had so far.
    private var tableArrayCounts: [[Step]: Int] = [:]

    init(_ source: String) {
        text = Array(source.unicodeScalars)
        readDocument()
    }

    /// The position of the value at `path`, else of its key, else of the nearest enclosing one that is known.
    func position(of path: [Step]) -> SourcePosition {
        var path = path
        while !path.isEmpty {
            if let p = values[path] ?? keys[path] { return p }
            path.removeLast()
        }
        return SourcePosition(line: 1, column: 1)
    }

    /// The position of the key at `path` (where the name is written), else as `position(of:)`.
    func keyPosition(of path: [Step]) -> SourcePosition {
        keys[path] ?? position(of: path)
    }

    // MARK: Reading

    private var current: Unicode.Scalar? { index < text.count ? text[index] : nil }
    private var here: SourcePosition { SourcePosition(line: line, column: column) }

    private func peek(_ offset: Int) -> Unicode.Scalar? {
        index + offset < text.count ? text[index + offset] : nil
    }

    private mutating func advance() {
        guard let c = current else { return }
        index += 1
        if c == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
    }

    private func starts(with literal: String) -> Bool {
        for (i, s) in literal.unicodeScalars.enumerated() where peek(i) != s { return false }
        return true
    }

    private mutating func skipBlanks() {
        while let c = current, c == " " || c == "\t" { advance() }
    }

    /// Blanks, line breaks and comments (between array elements and statements).
    private mutating func skipBlanksAndLines() {
        while let c = current {
            if c == " " || c == "\t" || c == "\n" || c == "\r" {
                advance()
            } else if c == "#" {
                while let c = current, c != "\n" { advance() }
            } else {
                return
            }
        }
    }

    private mutating func readDocument() {
        var table: [Step] = []
        while true {
            skipBlanksAndLines()
            guard let c = current else { return }
            let start = (index, here)
            if c == "[" {
                table = readHeader()
            } else {
                readKeyValue(in: table)
            }
            if index == start.0 { advance() }
        }
    }

    /// `[a.b]` or `[[a]]`: the table the statements after it go into.
    private mutating func readHeader() -> [Step] {
        let isArray = peek(1) == "["
        advance()
        if isArray { advance() }
        skipBlanks()
        let start = here
        var path = readKey()
        if isArray {
            let n = tableArrayCounts[path, default: 0]
            tableArrayCounts[path] = n + 1
            path.append(.index(n))
        }
        if keys[path] == nil { keys[path] = start }
        while let c = current, c != "\n" { advance() }
        return path
    }

    private mutating func readKeyValue(in table: [Step]) {
        let start = here
        let path = table + readKey()
        keys[path] = start
        skipBlanks()
        guard current == "=" else { return }
        advance()
        skipBlanks()
        readValue(at: path)
    }

    /// A dotted key: its parts, decoded.
    private mutating func readKey() -> [Step] {
        var parts: [Step] = []
        while true {
            skipBlanks()
            guard let c = current else { break }
            if c == "\"" || c == "'" {
                parts.append(.key(readString()))
            } else {
                var name = ""
                while let c = current, c.properties.isAlphabetic || c.properties.numericType != nil || c == "_" || c == "-" {
                    name.unicodeScalars.append(c)
                    advance()
                }
                guard !name.isEmpty else { break }
                parts.append(.key(name))
            }
            skipBlanks()
            guard current == "." else { break }
            advance()
        }
        return parts
    }

    private mutating func readValue(at path: [Step]) {
        values[path] = here
        switch current {
        case "\"", "'":
            _ = readString()
        case "[":
            advance()
            var i = 0
            while true {
                skipBlanksAndLines()
                guard let c = current, c != "]" else { break }
                let before = index
                readValue(at: path + [.index(i)])
                i += 1
                skipBlanksAndLines()
                if current == "," { advance() }
                if index == before { advance() }
            }
            advance()
        case "{":
            advance()
            while true {
                skipBlanks()
                guard let c = current, c != "}", c != "\n" else { break }
                let before = index
                readKeyValue(in: path)
                skipBlanks()
                if current == "," { advance() }
                if index == before { advance() }
            }
            advance()
        default:
            // A number, boolean or date: up to where the next thing starts (a date may hold a space).
            while let c = current, c != ",", c != "]", c != "}", c != "#", c != "\n" { advance() }
        }
    }

    /// A string of any of the four kinds, its escapes decoded (for keys); notes one that holds U+0000.
    private mutating func readString() -> String {
        let start = here
        let quote = current ?? "\""
        let literal = quote == "'"
        let multiline = starts(with: String(repeating: String(quote), count: 3))
        for _ in 0..<(multiline ? 3 : 1) { advance() }
        var out = String.UnicodeScalarView()
        while let c = current {
            if c == quote {
                if !multiline {
                    advance()
                    break
                }
                if peek(1) == quote, peek(2) == quote {
                    // Up to two quotes may end a multi-line string's text just before its closing three.
                    var extra = 0
                    while peek(3 + extra) == quote, extra < 2 { extra += 1 }
                    for _ in 0..<extra {
                        out.append(quote)
                        advance()
                    }
                    for _ in 0..<3 { advance() }
                    break
                }
            }
            if !literal, c == "\\" {
                advance()
                readEscape(into: &out, multiline: multiline)
                continue
            }
            if !multiline, c == "\n" { break }
            out.append(c)
            advance()
        }
        if out.contains("\u{0}") { nulStrings.append(start) }
        return String(out)
    }

    private mutating func readEscape(into out: inout String.UnicodeScalarView, multiline: Bool) {
        guard let e = current else { return }
        let simple: [Unicode.Scalar: Unicode.Scalar] = [
            "b": "\u{8}", "t": "\t", "n": "\n", "f": "\u{C}", "r": "\r", "e": "\u{1B}", "\"": "\"", "\\": "\\"
        ]
        if let s = simple[e] {
            out.append(s)
            advance()
        } else if e == "u" || e == "U" || e == "x" {
            advance()
            var hex = ""
            for _ in 0..<(e == "U" ? 8 : e == "u" ? 4 : 2) {
                guard let h = current, h.properties.isASCIIHexDigit else { break }
                hex.unicodeScalars.append(h)
                advance()
            }
            if let v = UInt32(hex, radix: 16), let s = Unicode.Scalar(v) { out.append(s) }
        } else if multiline {
            // A line-ending backslash: the break and the blanks after it are not part of the text.
            while let c = current, c == " " || c == "\t" || c == "\n" || c == "\r" { advance() }
        } else {
            advance()
        }
    }
}
