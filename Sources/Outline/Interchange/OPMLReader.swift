/// Reads an OPML document from its UTF-8 bytes in one pass: the XML that real OPML files hold (declaration,
/// comments, processing instructions, DOCTYPE, CDATA, the predefined entities and character references),
/// checked for well-formedness, with `outline` elements turned into nodes and everything else skipped.
///
/// Open elements are an explicit stack, never recursion, so nesting depth is bounded by memory alone; and
/// nothing is built from a character at a time: attribute values are copied from the bytes whole, unless
/// they hold references or line breaks.
struct OPMLReader {
    /// The document; the caller keeps it alive while the reader exists.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The next byte to read.
    var i = 0
    /// Where line 1 starts (after a byte-order mark), for columns.
    var lineOneStart = 0
    /// Attribute values that need more than a copy (references, normalised white space) are built here.
    var scratch: [UInt8] = []
    /// The attribute names of the start tag being read, for the duplicate check.
    var attributeNames: [Range<Int>] = []
    /// The same, hashed, for a tag with many of them.
    var hashedNames: Set<AttributeName> = []
    /// Whether an attribute value of the current start tag holds a plane-15 character.
    var valueHasPlane15 = false

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The kinds of element the reader acts on.
    enum Kind {
        case opml, body, outline, other
    }

    /// An element whose end tag has not been read yet.
    struct OpenElement {
        let name: Range<Int>
        /// Where its start tag begins, for "never closed" errors.
        let start: Int
        let kind: Kind
    }

    /// Reads from just after the XML declaration (see `readDeclaration`) to the end, as a tree.
    mutating func readElements() throws(InterchangeError) -> [OutlineNode] {
        var builder = OutlineBuilder()
        _ = try readElements { node, depth, _ in
            builder.add(node, depth: depth)
            return true
        }
        return builder.finish()
    }

    /// Reads from just after the XML declaration to the end, handing each outline to `emit` at its start tag
    /// with its depth (the number of outlines around it) and the offset read up to, in document order; the
    /// file's well-formedness is checked to its end. Stops early, returning false, when `emit` returns false.
    mutating func readElements(emit: (OutlineNode, Int, Int) -> Bool) throws(InterchangeError) -> Bool {
        let p = bytes
        let n = p.count
        var open: [OpenElement] = []
        /// How many outlines are among `open`.
        var outlines = 0
        var bodies = 0
        var sawRoot = false
        var sawDoctype = false

        while i < n {
            let b = p[i]
            if b != UInt8(ascii: "<") {
                if open.isEmpty {
                    if isSpace(b) {
                        i += 1
                        continue
                    }
                    throw fail(i, sawRoot ? "text after the root element" : "text before the root element")
                }
                // Text between elements: OPML keeps nothing there, but it must still be well-formed.
                try skipText()
                continue
            }
            let tagStart = i
            guard i + 1 < n else { throw fail(i, "the file ends inside a tag") }
            switch p[i + 1] {
            case UInt8(ascii: "/"):
                i += 2
                let name = try readName(what: "an element name after '</'")
                skipSpace()
                guard i < n, p[i] == UInt8(ascii: ">") else {
                    throw fail(i, "expected '>' to end </\(text(name))>")
                }
                i += 1
                guard let top = open.last, equal(top.name, name) else {
                    let expected = open.last.map { "</\(text($0.name))> for the <\(text($0.name))> of line \(line(of: $0.start))" } ?? "nothing"
                    throw fail(tagStart, "</\(text(name))> does not close what is open (expected \(expected))")
                }
                open.removeLast()
                switch top.kind {
                case .body: bodies -= 1
                case .outline: outlines -= 1
                case .opml, .other: break
                }

            case UInt8(ascii: "!"):
                if matches("<!--", at: i) {
                    try skipPast("-->", from: i + 4, what: "a comment", start: tagStart)
                } else if matches("<![CDATA[", at: i) {
                    guard !open.isEmpty else { throw fail(tagStart, "a CDATA section outside the root element") }
                    try skipPast("]]>", from: i + 9, what: "a CDATA section", start: tagStart)
                } else if matches("<!DOCTYPE", at: i) {
                    guard !sawRoot else { throw fail(tagStart, "a <!DOCTYPE after the root element") }
                    guard !sawDoctype else { throw fail(tagStart, "a second <!DOCTYPE") }
                    sawDoctype = true
                    try skipDoctype()
                } else {
                    throw fail(tagStart, "'<!' that starts no comment, CDATA section or DOCTYPE")
                }

            case UInt8(ascii: "?"):
                i += 2
                let target = try readName(what: "a processing instruction's target after '<?'")
                if target.count == 3 && text(target).lowercased() == "xml" {
                    throw fail(tagStart, "an XML declaration is allowed only at the start of the file")
                }
                try skipPast("?>", from: i, what: "a processing instruction", start: tagStart)

            default:
                i += 1
                let name = try readName(what: "an element name after '<'")
                let kind = kind(of: name)
                if open.isEmpty {
                    if sawRoot {
                        throw fail(tagStart, "a second root element <\(text(name))> (a file holds one <opml>)")
                    }
                    guard kind == .opml else {
                        // Reported at the start of the file: the file as a whole is not OPML.
                        throw InterchangeError(
                            format: "OPML", line: 1, column: 1,
                            message: "no <opml> element (the root element is <\(text(name))>)")
                    }
                    sawRoot = true
                }
                if kind == .outline && bodies == 0 { throw fail(tagStart, "an <outline> outside <body>") }
                let (selfClosing, node) = try readAttributes(of: name, startingAt: tagStart, keeping: kind == .outline)
                if let node {
                    guard emit(node, outlines, i) else { return false }
                    if !selfClosing { outlines += 1 }
                }
                if !selfClosing {
                    open.append(OpenElement(name: name, start: tagStart, kind: kind))
                    if kind == .body { bodies += 1 }
                }
            }
        }
        if let top = open.last {
            throw fail(n, "<\(text(top.name))> opened on line \(line(of: top.start)) is never closed")
        }
        guard sawRoot else { throw InterchangeError(format: "OPML", line: 1, column: 1, message: "no <opml> element") }
        return true
    }

    /// What the element a name starts is to the reader.
    private func kind(of name: Range<Int>) -> Kind {
        switch name.count {
        case 7 where matches("outline", at: name.lowerBound): return .outline
        case 4 where matches("body", at: name.lowerBound): return .body
        case 4 where matches("opml", at: name.lowerBound): return .opml
        default: return .other
        }
    }
}
