extension OPMLReader {
    /// Reads a start tag's attributes up to its `>` or `/>`; returns whether the tag closes itself and, when
    /// `keeping` (an `outline`), the node they describe.
    mutating func readAttributes(of element: Range<Int>, startingAt tagStart: Int, keeping: Bool) throws(InterchangeError)
        -> (selfClosing: Bool, node: OutlineNode?)
    {
        let p = bytes
        var textValue: String?
        var titleValue: String?
        var note: String?
        var complete: String?
        var status: String?
        var extras: [String?] = []
        var tags: String?
        var selfClosing = false
        var attributeCount = 0
        valueHasPlane15 = false
        while true {
            let before = i
            skipSpace()
            guard i < p.count else { throw fail(tagStart, "the file ends inside the tag <\(text(element))>") }
            let b = p[i]
            if b == UInt8(ascii: ">") {
                i += 1
                break
            }
            if b == UInt8(ascii: "/") {
                guard i + 1 < p.count, p[i + 1] == UInt8(ascii: ">") else {
                    throw fail(i, "expected '>' after '/' in <\(text(element))>")
                }
                i += 2
                selfClosing = true
                break
            }
            guard i > before else { throw fail(i, "expected a space, '>' or '/>' in <\(text(element))>") }
            let name = try readName(what: "an attribute name, '>' or '/>'")
            guard record(name, after: attributeCount) else {
                throw fail(name.lowerBound, "attribute \(text(name)) appears twice in <\(text(element))>")
            }
            attributeCount += 1
            skipSpace()
            guard i < p.count, p[i] == UInt8(ascii: "=") else { throw fail(i, "expected '=' after attribute \(text(name))") }
            i += 1
            skipSpace()
            guard i < p.count, p[i] == UInt8(ascii: "\"") || p[i] == UInt8(ascii: "'") else {
                throw fail(i, "expected the value of attribute \(text(name)) in quotes")
            }
            guard keeping else {
                _ = try readValue(keeping: false)
                continue
            }
            let start = name.lowerBound
            switch name.count {
            case 4 where matches("text", at: start): textValue = try readValue(keeping: true)
            case 5 where matches("title", at: start): titleValue = try readValue(keeping: true)
            case 5 where matches("_note", at: start): note = try readValue(keeping: true)
            case 5 where matches("_tags", at: start): tags = try readValue(keeping: true)
            case 9 where matches("_complete", at: start): complete = try readValue(keeping: true)
            case 7 where matches("_status", at: start): status = try readValue(keeping: true)
            default:
                // Burrow's own `_state`, `_priority`, … (see `OPML.extrasAttributes`).
                guard name.count > 5, p[start] == UInt8(ascii: "_"),
                    let k = OPML.extrasAttributes.firstIndex(where: { $0.utf8.elementsEqual(p[name]) })
                else {
                    _ = try readValue(keeping: false)
                    continue
                }
                if extras.isEmpty { extras = Array(repeating: nil, count: OPML.extrasAttributes.count) }
                extras[k] = try readValue(keeping: true)
            }
        }
        guard keeping else { return (selfClosing, nil) }
        var title = textValue ?? titleValue ?? ""
        // OmniOutliner writes `_status="checked"` (or "unchecked", "indeterminate") where others write `_complete`.
        let done = complete?.lowercased() == "true" || status?.lowercased() == "checked"
        // Only values with plane-15 scalars can hold the writer's stand-ins for control characters.
        if valueHasPlane15 {
            title = OPML.unescapeControls(title)
            note = note.map(OPML.unescapeControls)
        }
        if valueHasPlane15 {
            extras = extras.map { $0.map(OPML.unescapeControls) }
            tags = tags.map(OPML.unescapeControls)
        }
        var node = OutlineNode(
            OPMLMarkup.markdown(fromHTML: title), note: note.map(OPMLMarkup.markdown(fromHTML:)), isDone: done,
            extras: extras.isEmpty ? nil : OutlineNode.Extras(values: extras))
        // Burrow's `_tags=":work:home:"` (a tag holds no colon).
        if let tags {
            node.tags = OPML.tags(tags)
            if let bad = node.tags.first(where: { Tag.problem(with: $0) != nil }) {
                throw fail(tagStart, "“\(bad)” in _tags is not a tag: \(Tag.problem(with: bad)!)")
            }
        }
        // Both hold HTML (Workflowy's bold, italic and links), read as Markdown.
        return (selfClosing, node)
    }

    /// Records `name` after the tag's first `count` attribute names; false when it is among them already.
    /// A tag's few names are compared one by one; past `linearNames` they are hashed, so that a tag of
    /// 200,000 attributes costs no more than their bytes (comparing each with all before it took 127 s for
    /// 40,000).
    private mutating func record(_ name: Range<Int>, after count: Int) -> Bool {
        let linearNames = 16
        if count < linearNames {
            for k in 0..<count where equal(attributeNames[k], name) { return false }
            // The list is reused from tag to tag: entries past the count are stale.
            if count < attributeNames.count { attributeNames[count] = name } else { attributeNames.append(name) }
            return true
        }
        if count == linearNames {
            // Not keeping the capacity: clearing a table sized for a huge tag would cost its size each time.
            hashedNames.removeAll()
            for k in 0..<count { hashedNames.insert(AttributeName(bytes, attributeNames[k])) }
        }
        return hashedNames.insert(AttributeName(bytes, name)).inserted
    }

    /// Reads a quoted attribute value (references replaced, white space normalised as XML says); the
    /// value itself only when `keeping`.
    mutating func readValue(keeping: Bool) throws(InterchangeError) -> String? {
        let p = bytes
        let quote = p[i]
        let valueStart = i
        i += 1
        let start = i
        // Most values are plain text: find the quote, then copy the bytes whole.
        while i < p.count {
            let b = p[i]
            if b == quote {
                i += 1
                return keeping ? String(decoding: UnsafeBufferPointer(rebasing: p[start..<(i - 1)]), as: UTF8.self) : nil
            }
            if b >= 0x80 {
                // U+F0000–U+FFFFF start with F3 in UTF-8.
                if b == 0xF3 { valueHasPlane15 = true }
                i = try characterEnd(i)
            } else if b == UInt8(ascii: "&") || b == UInt8(ascii: "<") || b < 0x20 {
                break
            } else {
                i += 1
            }
        }
        if keeping {
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: p[start..<i]))
        }
        while i < p.count {
            let b = p[i]
            if b == quote {
                i += 1
                return keeping ? String(decoding: scratch, as: UTF8.self) : nil
            }
            if b >= 0x80 {
                if b == 0xF3 { valueHasPlane15 = true }
                let end = try characterEnd(i)
                if keeping { scratch.append(contentsOf: UnsafeBufferPointer(rebasing: p[i..<end])) }
                i = end
            } else if b == UInt8(ascii: "&") {
                let scalar = try readReference()
                if scalar.value >= 0xF_0000 && scalar.value <= 0xF_FFFF { valueHasPlane15 = true }
                if keeping { UTF8.encode(scalar) { scratch.append($0) } }
            } else if b == UInt8(ascii: "<") {
                throw fail(i, "'<' in an attribute value (write &lt;)")
            } else if b < 0x20 {
                guard isSpace(b) else { throw controlCharacter(i) }
                // Attribute-value normalisation: a tab or line break (CR LF counts as one) is a space; the
                // writer keeps real ones as character references, which are not normalised.
                if b == 0x0D && i + 1 < p.count && p[i + 1] == 0x0A { i += 1 }
                if keeping { scratch.append(0x20) }
                i += 1
            } else {
                if keeping { scratch.append(b) }
                i += 1
            }
        }
        throw fail(valueStart, "an attribute value that is never closed")
    }

    /// Reads the reference at `i` (`&name;`, `&#DIGITS;` or `&#xHEX;`) and returns its character.
    mutating func readReference() throws(InterchangeError) -> Unicode.Scalar {
        let p = bytes
        let start = i
        i += 1
        if i < p.count && p[i] == UInt8(ascii: "#") {
            i += 1
            let hex = i < p.count && p[i] == UInt8(ascii: "x")
            if hex { i += 1 }
            let digits = i
            let (value, end) = OPML.referenceNumber(p, from: i, hex: hex)
            i = end
            guard i > digits, i < p.count, p[i] == UInt8(ascii: ";") else {
                throw fail(start, "a character reference is &#DIGITS; or &#xHEX;")
            }
            i += 1
            guard Self.isXMLCharacter(value), let scalar = Unicode.Scalar(value) else {
                throw fail(start, "\(text(start..<i)) is not a character XML allows")
            }
            return scalar
        }
        let name = i
        while i < p.count && i - name < 32 {
            let b = p[i]
            let letter = (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z")
            guard letter || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) else { break }
            i += 1
        }
        guard i > name, i < p.count, p[i] == UInt8(ascii: ";") else {
            throw fail(start, "'&' starts no reference (write &amp; for an ampersand)")
        }
        i += 1
        switch i - name - 1 {
        case 2 where matches("lt", at: name): return "<"
        case 2 where matches("gt", at: name): return ">"
        case 3 where matches("amp", at: name): return "&"
        case 4 where matches("apos", at: name): return "'"
        case 4 where matches("quot", at: name): return "\""
        default:
            throw fail(
                start,
                "unknown entity \(text(start..<i)) (XML predefines only &lt; &gt; &amp; &apos; &quot;; "
                    + "write other characters as &#NUMBER;)")
        }
    }

    /// XML 1.0's `Char`: tab, line feed, carriage return and the scalars from U+0020 but U+FFFE and U+FFFF.
    static func isXMLCharacter(_ v: UInt32) -> Bool {
        v == 0x09 || v == 0x0A || v == 0x0D || (v >= 0x20 && v <= 0xD7FF) || (v >= 0xE000 && v <= 0xFFFD)
            || (v >= 0x1_0000 && v <= 0x10_FFFF)
    }
}
