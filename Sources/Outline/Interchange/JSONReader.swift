/// Reads Burrow's JSON outline (docs/FORMATS.md, JSON) in one walk of its bytes, handing each item to a
/// builder as it goes: no tree of values and no tree of items, with an explicit stack instead of recursion,
/// and line and column in errors.
///
/// An item goes on when its `children` array starts (or when it ends, without one). Members written after
/// `children` (the writer never does) change an item already handed on: a tree-building builder gets the
/// change, an emitting one gets it from a first pass that hands nothing on (``Late``). Errors come in the
/// order the whole-document reader gave them: bad JSON first, then the document's `format`, `version` and
/// `items`, then the first bad item.
struct JSONReader {
    /// What becomes of members that come after an item's `children`.
    enum Late {
        /// Set on the open item: the builder builds the tree.
        case amend
        /// Kept by the item's number in document order (``recorded``): a first pass, with no builder.
        case record
        /// A first pass's items, taken as they are handed on.
        case use([Int: OutlineNode])
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var i = 0
    private var line = 1
    private var lineStart = 0

    /// Where the items go; nil for a first pass.
    private(set) var builder: OutlineBuilder?
    private let late: Late
    /// The items whose members went on after their `children`, whole, by number (`.record`).
    private(set) var recorded: [Int: OutlineNode] = [:]
    private var ordinal = 0

    /// The first fault of the document's own members, of its `items`, and of an item, thrown at the end in
    /// that order (a JSON syntax error is thrown where it is met: it comes first whatever follows).
    private var documentError: InterchangeError?
    private var itemsError: InterchangeError?
    private var itemError: InterchangeError?

    /// A reader of `bytes` (UTF-8 without a byte-order mark; they must outlive the reader).
    init(_ bytes: UnsafeBufferPointer<UInt8>, into builder: OutlineBuilder?, late: Late) {
        self.bytes = bytes
        self.builder = builder
        self.late = late
    }

    /// What an open container is to the outline.
    private enum Role {
        case document, items, item, children, skipped
        /// An item's `tags`: an array of strings.
        case tags
    }

    /// An open container.
    private struct Frame {
        var role: Role
        let isObject: Bool
        let line: Int
        let column: Int
        /// The member whose value comes next (objects).
        var key: String?
        /// An item's members so far, its depth, and what it was handed on with.
        var node = OutlineNode("")
        var sawTitle = false
        var sawChildren = false
        var depth = 0
        var handed: (ordinal: Int, node: OutlineNode)?
        /// The first fault of the item's members, and of its children.
        var ownError: InterchangeError?
        var childError: InterchangeError?
        /// The document's `items` arrays.
        var itemsSeen = 0
    }

    /// A value read whole.
    private enum Value {
        case string(String)
        case scalar(String)
        /// An object or array, opened (and closed again if empty) by the walk.
        case container
    }

    /// Reads the whole document: `{"format": …, "version": 1, "items": [...]}`, or a bare array of items.
    mutating func read() throws(InterchangeError) {
        var stack: [Frame] = []
        var root: (line: Int, column: Int, isContainer: Bool)?
        while true {
            skipSpace()
            guard let c = peek() else { throw fail("unexpected end of input") }
            let (l, col) = (line, i - lineStart + 1)
            if root == nil { root = (l, col, c == UInt8(ascii: "{") || c == UInt8(ascii: "[")) }
            switch c {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = c == UInt8(ascii: "{")
                i += 1
                var frame = Frame(
                    role: role(ofContainerIn: &stack, isObject: isObject, line: l, column: col), isObject: isObject, line: l, column: col)
                if frame.role == .item { frame.depth = stack.last?.role == .items ? 0 : stack[stack.count - 2].depth + 1 }
                if frame.role == .children { handOn(&stack[stack.count - 1]) }
                stack.append(frame)
                skipSpace()
                if peek() == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    i += 1
                    try close(&stack)
                } else {
                    if isObject { stack[stack.count - 1].key = try key() }
                    continue
                }
            case UInt8(ascii: "\""):
                let text = try string()
                try take(.string(text), in: &stack, line: l, column: col)
            default:
                let text = try scalar()
                try take(.scalar(text), in: &stack, line: l, column: col)
            }
            // A value is complete: go on in its container, closing every container that ends here.
            while true {
                guard let t = stack.last else {
                    skipSpace()
                    guard i == bytes.count else { throw fail("unexpected text after the document") }
                    if root?.isContainer == false { throw JSONReader.fail("expected an object or an array", 1, 1) }
                    if let error = documentError ?? itemsError ?? itemError { throw error }
                    return
                }
                skipSpace()
                if peek() == UInt8(ascii: ",") {
                    i += 1
                    if t.isObject { stack[stack.count - 1].key = try key() }
                    break
                } else if peek() == (t.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    i += 1
                    try close(&stack)
                } else {
                    throw fail((t.isObject ? "expected “,” or “}”" : "expected “,” or “]”") + (peek() == nil ? " but the input ended" : ""))
                }
            }
        }
    }

    /// What a container opening here is, by the container it is in and its member name.
    private mutating func role(ofContainerIn stack: inout [Frame], isObject: Bool, line: Int, column: Int) -> Role {
        guard let parent = stack.last else { return isObject ? .document : .items }
        switch parent.role {
        case .document:
            guard parent.key == "items" else { return .skipped }
            guard !isObject else {
                itemsProblem("\"items\" must be an array")
                return .skipped
            }
            return .items
        case .items, .children:
            guard isObject else {
                itemProblem("an item must be an object", line, column, in: &stack, own: false)
                return .skipped
            }
            return .item
        case .item:
            guard let key = parent.key, key == "children" || JSONOutline.itemMembers.contains(key) else { return .skipped }
            if key == "tags", !isObject {
                stack[stack.count - 1].node.tags = []
                return .tags
            }
            guard key == "children", !isObject else {
                itemProblem("\"\(key)\" has the wrong type", parent.line, parent.column, in: &stack, own: true)
                return .skipped
            }
            if parent.sawChildren {
                itemProblem("\"children\" is there twice", parent.line, parent.column, in: &stack, own: true)
                return .skipped
            }
            stack[stack.count - 1].sawChildren = true
            return .children
        case .skipped:
            return .skipped
        case .tags:
            itemProblem("a tag must be a string", line, column, in: &stack, own: true)
            return .skipped
        }
    }

    /// A string or scalar member or element.
    private mutating func take(_ value: Value, in stack: inout [Frame], line: Int, column: Int) throws(InterchangeError) {
        guard !stack.isEmpty else { return }
        let n = stack.count - 1
        let frame = stack[n]
        switch frame.role {
        case .document:
            switch (frame.key, value) {
            case ("format", .string(let text)) where text != "burrow-outline":
                documentProblem("format is \"\(text)\", expected \"burrow-outline\"", frame)
            case ("version", .scalar(let text)) where !(1...JSONOutline.version).map(String.init).contains(text):
                documentProblem("version \(text) is not supported (this Burrow reads versions 1 to \(JSONOutline.version))", frame)
            case ("items", _):
                itemsProblem("\"items\" must be an array")
            default: break
            }
        case .items, .children:
            itemProblem("an item must be an object", line, column, in: &stack, own: false)
        case .item:
            switch (frame.key, value) {
            case ("title", .string(let text)):
                stack[n].node.title = text
                stack[n].sawTitle = true
            case ("note", .string(let text)): stack[n].node.note = text
            case ("note", .scalar("null")): stack[n].node.note = nil
            case ("done", .scalar("true")): stack[n].node.isDone = true
            case ("done", .scalar("false")): stack[n].node.isDone = false
            case (let key?, .string(let text)) where JSONOutline.extrasMembers.contains(key):
                JSONOutline.set(key, text, on: &stack[n].node)
            case (let key?, .scalar("null")) where JSONOutline.extrasMembers.contains(key):
                JSONOutline.set(key, nil, on: &stack[n].node)
            case (let key?, _) where key == "children" || JSONOutline.itemMembers.contains(key):
                itemProblem("\"\(frame.key ?? "")\" has the wrong type", frame.line, frame.column, in: &stack, own: true)
            default: break
            }
        case .skipped:
            break
        case .tags:
            guard case .string(let tag) = value else {
                itemProblem("a tag must be a string", line, column, in: &stack, own: true)
                break
            }
            if let why = Tag.problem(with: tag) {
                itemProblem("“\(tag)” is not a tag: \(why)", line, column, in: &stack, own: true)
                break
            }
            if !stack[n - 1].node.tags.contains(tag) { stack[n - 1].node.tags.append(tag) }
        }
    }

    /// Closes the innermost container: an item is handed on (or its late members settled), the document's
    /// `items` are checked.
    private mutating func close(_ stack: inout [Frame]) throws(InterchangeError) {
        let frame = stack.removeLast()
        switch frame.role {
        case .document:
            if frame.itemsSeen == 0 { itemsProblem("no \"items\" array", frame) }
        case .items:
            if let n = stack.indices.last {
                stack[n].itemsSeen += 1
                if stack[n].itemsSeen > 1 { itemsProblem("\"items\" is there twice", stack[n]) }
            }
        case .item:
            // The item's own fault comes before its children's, as the whole-document reader, which checked
            // an item's members before it went into its children, found them.
            let missing = frame.sawTitle ? nil : JSONReader.fail("an item without \"title\"", frame.line, frame.column)
            if let error = frame.ownError ?? missing ?? frame.childError {
                itemProblem(error, in: &stack)
                return
            }
            if let handed = frame.handed {
                settle(handed, frame.node, depth: frame.depth)
            } else {
                add(frame.node, depth: frame.depth)
            }
        case .children, .skipped, .tags:
            break
        }
    }

    /// Hands the item whose `children` open on, before them.
    private mutating func handOn(_ frame: inout Frame) {
        guard frame.handed == nil else { return }
        frame.handed = (ordinal, frame.node)
        add(frame.node, depth: frame.depth)
    }

    private mutating func add(_ node: OutlineNode, depth: Int) {
        var node = node
        if case .use(let whole) = late, let known = whole[ordinal] { node = known }
        ordinal += 1
        builder?.add(node, depth: depth)
    }

    /// An item handed on before members that changed it.
    private mutating func settle(_ handed: (ordinal: Int, node: OutlineNode), _ node: OutlineNode, depth: Int) {
        guard
            node.title != handed.node.title || node.note != handed.node.note || node.isDone != handed.node.isDone
                || node.extras != handed.node.extras
        else { return }
        switch late {
        case .amend:
            builder?.update(ofOpenItemAt: depth) { open in
                open.title = node.title
                open.note = node.note
                open.isDone = node.isDone
                open.extras = node.extras
            }
        case .record: recorded[handed.ordinal] = node
        case .use: break
        }
    }

    private mutating func documentProblem(_ message: String, _ frame: Frame) {
        if documentError == nil { documentError = JSONReader.fail(message, frame.line, frame.column) }
    }

    private mutating func itemsProblem(_ message: String, _ frame: Frame? = nil) {
        // The whole-document reader named no place for a bad `items`: its first line and column.
        if itemsError == nil { itemsError = JSONReader.fail(message, frame?.line ?? 1, frame?.column ?? 1) }
    }

    /// A fault of an item (`own`: the innermost open item's own members) or of one of its children (held by
    /// the innermost open item until it closes), or at the top.
    private mutating func itemProblem(_ message: String, _ line: Int, _ column: Int, in stack: inout [Frame], own: Bool) {
        let error = JSONReader.fail(message, line, column)
        guard let n = stack.lastIndex(where: { $0.role == .item }) else {
            if itemError == nil { itemError = error }
            return
        }
        if own {
            if stack[n].ownError == nil { stack[n].ownError = error }
        } else if stack[n].childError == nil {
            stack[n].childError = error
        }
    }

    /// A closed item's fault, for the item holding it (or the top).
    private mutating func itemProblem(_ error: InterchangeError, in stack: inout [Frame]) {
        if let n = stack.lastIndex(where: { $0.role == .item }) {
            if stack[n].childError == nil { stack[n].childError = error }
        } else if itemError == nil {
            itemError = error
        }
    }

    private func fail(_ message: String) -> InterchangeError {
        InterchangeError(format: "JSON", line: line, column: i - lineStart + 1, message: message)
    }

    private static func fail(_ message: String, _ line: Int, _ column: Int) -> InterchangeError {
        InterchangeError(format: "JSON", line: line, column: column, message: message)
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
        let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        let ok = s == "true" || s == "false" || s == "null" || Double(s) != nil
        guard ok else {
            i = start
            throw fail("unexpected \(s.isEmpty ? "character" : "“\(s.prefix(20))”")")
        }
        return s
    }

    private mutating func string() throws(InterchangeError) -> String {
        try expect(UInt8(ascii: "\""))
        // Most strings hold no escape: taken whole from the bytes.
        let start = i
        while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\"), bytes[i] >= 0x20 { i += 1 }
        if i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
            i += 1
            guard let s = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<(i - 1)]), as: UTF8.self) else {
                throw fail("invalid UTF-8 in a string")
            }
            return s
        }
        var out = Array(UnsafeBufferPointer(rebasing: bytes[start..<i]))
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
        guard i + 4 <= bytes.count,
            let v = UInt32(String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<(i + 4)]), as: UTF8.self), radix: 16)
        else {
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
