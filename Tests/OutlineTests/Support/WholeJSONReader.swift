@testable import Outline

/// The JSON reader as it was before it handed items on as it read: the whole document as a tape of values,
/// then the tree. The judge the streaming `JSONReader` is held against (`JSONStreamingTests`).
enum WholeJSON {
    static func read(_ text: String) throws(InterchangeError) -> [OutlineNode] {
        var p = WholeJSONReader(text)
        return try p.document()
    }
}

/// A small JSON reader: objects, arrays, strings, numbers, booleans and null, with line and column in
/// errors, and an explicit stack instead of recursion.
struct WholeJSONReader {
    private let bytes: [UInt8]
    private var i = 0
    private var line = 1
    private var lineStart = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    private func fail(_ message: String) -> InterchangeError {
        InterchangeError(format: "JSON", line: line, column: i - lineStart + 1, message: message)
    }

    private static func fail(_ message: String, _ line: Int, _ column: Int) -> InterchangeError {
        InterchangeError(format: "JSON", line: line, column: column, message: message)
    }

    private static func fail(_ message: String, at value: WholeJSONTape.Value) -> InterchangeError {
        fail(message, value.line, value.column)
    }

    /// `{"format": …, "version": 1 or 2, "items": [...]}`, or a bare array of items.
    mutating func document() throws(InterchangeError) -> [OutlineNode] {
        let tape = try values()
        skipSpace()
        guard i == bytes.count else { throw fail("unexpected text after the document") }
        let root = tape[0]
        switch root.kind {
        case .array: return try WholeJSONReader.nodes(tape, array: 0)
        case .object:
            var items: Int?
            for k in tape.contents(of: 0) {
                let v = tape[k]
                switch (v.key, v.kind) {
                case ("format", .string) where v.text != "burrow-outline":
                    throw WholeJSONReader.fail("format is \"\(v.text)\", expected \"burrow-outline\"", at: root)
                case ("version", .scalar) where !["1", "2", "3"].contains(v.text):
                    throw WholeJSONReader.fail("version \(v.text) is not supported (this Burrow reads versions 1 to 3)", at: root)
                case ("items", _):
                    // Which of two would be meant cannot be known: the streaming reader refuses the document.
                    if items != nil { throw WholeJSONReader.fail("\"items\" is there twice", at: root) }
                    items = k
                default: break
                }
            }
            guard let items else { throw WholeJSONReader.fail("no \"items\" array", at: root) }
            return try WholeJSONReader.nodes(tape, array: items)
        default:
            throw WholeJSONReader.fail("expected an object or an array", 1, 1)
        }
    }

    /// Outline nodes from an array of item objects, without recursion.
    static func nodes(_ tape: WholeJSONTape, array: Int) throws(InterchangeError) -> [OutlineNode] {
        guard tape[array].kind == .array else { throw fail("\"items\" must be an array", 1, 1) }
        struct Frame {
            var next: Int
            let end: Int
            var built: [OutlineNode] = []
            var owner: OutlineNode?
        }
        var stack = [Frame(next: array + 1, end: tape[array].end)]
        while true {
            let f = stack.count - 1
            if stack[f].next < stack[f].end {
                let v = stack[f].next
                let item = tape[v]
                stack[f].next = item.end
                guard item.kind == .object else { throw fail("an item must be an object", at: item) }
                var node = OutlineNode("")
                var sawTitle = false
                var children: Int?
                for k in tape.contents(of: v) {
                    let member = tape[k]
                    switch (member.key, member.kind) {
                    case ("title", .string): node.title = member.text; sawTitle = true
                    case ("note", .string): node.note = member.text
                    case ("note", .scalar) where member.text == "null": node.note = nil
                    case ("done", .scalar) where member.text == "true" || member.text == "false": node.isDone = member.text == "true"
                    case ("children", .array):
                        if children != nil { throw fail("\"children\" is there twice", at: item) }
                        children = k
                    case ("tags", .array):
                        var tags: [String] = []
                        for e in tape.contents(of: k) {
                            guard tape[e].kind == .string else { throw fail("a tag must be a string", at: tape[e]) }
                            if let why = Tag.problem(with: tape[e].text) { throw fail("“\(tape[e].text)” is not a tag: \(why)", at: tape[e]) }
                            if !tags.contains(tape[e].text) { tags.append(tape[e].text) }
                        }
                        node.tags = tags
                    case ("tags", _): throw fail("\"tags\" has the wrong type", at: item)
                    case (let key?, .string) where JSONOutline.extrasMembers.contains(key): JSONOutline.set(key, member.text, on: &node)
                    case (let key?, .scalar) where JSONOutline.extrasMembers.contains(key) && member.text == "null":
                        JSONOutline.set(key, nil, on: &node)
                    case ("title", _), ("note", _), ("done", _), ("children", _):
                        throw fail("\"\(member.key!)\" has the wrong type", at: item)
                    case (let key?, _) where JSONOutline.extrasMembers.contains(key):
                        throw fail("\"\(key)\" has the wrong type", at: item)
                    default: break
                    }
                }
                guard sawTitle else { throw fail("an item without \"title\"", at: item) }
                if let children, tape[children].end > children + 1 {
                    stack.append(Frame(next: children + 1, end: tape[children].end, owner: node))
                } else {
                    stack[f].built.append(node)
                }
            } else {
                let done = stack.removeLast()
                guard var owner = done.owner else { return done.built }
                owner.children = done.built
                stack[stack.count - 1].built.append(owner)
            }
        }
    }

    /// The document's values, read with an explicit stack of open containers.
    mutating func values() throws(InterchangeError) -> WholeJSONTape {
        var tape = WholeJSONTape()
        /// The containers not closed yet, by their index in the tape.
        var open: [Int] = []
        var key: String?
        while true {
            skipSpace()
            guard let c = peek() else { throw fail("unexpected end of input") }
            let (l, col) = (line, i - lineStart + 1)
            switch c {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = c == UInt8(ascii: "{")
                i += 1
                tape.values.append(.init(kind: isObject ? .object : .array, key: key, text: "", line: l, column: col, end: 0))
                skipSpace()
                if peek() == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    i += 1
                    tape.values[tape.values.count - 1].end = tape.values.count
                } else {
                    open.append(tape.values.count - 1)
                    key = isObject ? try self.key() : nil
                    continue
                }
            case UInt8(ascii: "\""):
                tape.values.append(.init(kind: .string, key: key, text: try string(), line: l, column: col, end: tape.values.count + 1))
            default: tape.values.append(.init(kind: .scalar, key: key, text: try scalar(), line: l, column: col, end: tape.values.count + 1))
            }
            // A value is complete: go on in its container, closing every container that ends here.
            while true {
                guard let t = open.last else { return tape }
                skipSpace()
                let isObject = tape[t].kind == .object
                if peek() == UInt8(ascii: ",") {
                    i += 1
                    key = isObject ? try self.key() : nil
                    break
                } else if peek() == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    i += 1
                    tape.values[t].end = tape.values.count
                    open.removeLast()
                } else {
                    throw fail((isObject ? "expected “,” or “}”" : "expected “,” or “]”") + (peek() == nil ? " but the input ended" : ""))
                }
            }
        }
    }

    private mutating func key() throws(InterchangeError) -> String {
        skipSpace()
        guard peek() == UInt8(ascii: "\"") else { throw fail("expected a member name in quotes") }
        let k = try string()
        try expect(UInt8(ascii: ":"))
        return k
    }

    /// A number, `true`, `false` or `null`, as its text.
    private mutating func scalar() throws(InterchangeError) -> String {
        let start = i
        while let c = peek(), c != UInt8(ascii: ","), c != UInt8(ascii: "}"), c != UInt8(ascii: "]"), c > 0x20 { i += 1 }
        let s = String(decoding: bytes[start..<i], as: UTF8.self)
        let ok = s == "true" || s == "false" || s == "null" || Double(s) != nil
        guard ok else {
            i = start
            throw fail("unexpected \(s.isEmpty ? "character" : "“\(s.prefix(20))”")")
        }
        return s
    }

    private mutating func string() throws(InterchangeError) -> String {
        try expect(UInt8(ascii: "\""))
        var out: [UInt8] = []
        while true {
            guard let c = peek() else { throw fail("unterminated string") }
            i += 1
            switch c {
            case UInt8(ascii: "\""):
                guard let s = String(validating: out, as: UTF8.self) else { throw fail("invalid UTF-8 in a string") }
                return s
            case UInt8(ascii: "\\"):
                guard let e = peek() else { throw fail("unterminated string") }
                i += 1
                switch e {
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "b"): out.append(8)
                case UInt8(ascii: "f"): out.append(12)
                case UInt8(ascii: "/"), UInt8(ascii: "\\"), UInt8(ascii: "\""): out.append(e)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard peek() == UInt8(ascii: "\\") else { throw fail("unpaired surrogate") }
                        i += 1
                        guard peek() == UInt8(ascii: "u") else { throw fail("unpaired surrogate") }
                        i += 1
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("unpaired surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw fail("invalid \\u escape") }
                    out += Array(String(Character(u)).utf8)
                default: throw fail("invalid escape \\\(Character(Unicode.Scalar(e)))")
                }
            case 0..<0x20: throw fail("control character in a string")
            default: out.append(c)
            }
        }
    }

    private mutating func hex4() throws(InterchangeError) -> UInt32 {
        guard i + 4 <= bytes.count, let v = UInt32(String(decoding: bytes[i..<(i + 4)], as: UTF8.self), radix: 16) else {
            throw fail("invalid \\u escape")
        }
        i += 4
        return v
    }

    private mutating func expect(_ c: UInt8) throws(InterchangeError) {
        skipSpace()
        guard peek() == c else {
            throw fail("expected “\(Character(Unicode.Scalar(c)))”" + (peek() == nil ? " but the input ended" : ""))
        }
        i += 1
    }

    private func peek() -> UInt8? { i < bytes.count ? bytes[i] : nil }

    private mutating func skipSpace() {
        while i < bytes.count {
            let c = bytes[i]
            if c == 10 {
                line += 1
                lineStart = i + 1
            } else if c != 32 && c != 9 && c != 13 {
                return
            }
            i += 1
        }
    }
}

/// A JSON document as one flat list of its values in document order: a container is followed by its
/// contents, and knows where they end. No value holds another, so a document of any depth is made, read
/// and freed without recursion (a tree of nested enums is freed a frame per level).
struct WholeJSONTape {
    enum Kind {
        case object, array, string
        /// A number, `true`, `false` or `null`, as written.
        case scalar
    }

    struct Value {
        let kind: Kind
        /// Its member name, when it is a member of an object.
        let key: String?
        /// A string's text or a scalar as written; empty for a container.
        let text: String
        let line: Int
        let column: Int
        /// The index after the value and its contents: its next sibling's.
        var end: Int
    }

    var values: [Value] = []

    subscript(_ k: Int) -> Value { values[k] }

    /// The indices of a container's elements (or members).
    func contents(of k: Int) -> some Sequence<Int> {
        sequence(first: k + 1) { values[$0].end }.lazy.prefix { $0 < values[k].end }
    }
}
