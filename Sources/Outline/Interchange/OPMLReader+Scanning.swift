extension OPMLReader {
    // MARK: - Bytes

    func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D
    }

    mutating func skipSpace() {
        while i < bytes.count && isSpace(bytes[i]) { i += 1 }
    }

    /// Whether `literal` (ASCII) is at `k`.
    func matches(_ literal: StaticString, at k: Int) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard k + count <= bytes.count else { return false }
        let l = literal.utf8Start
        for j in 0..<count where bytes[k + j] != l[j] { return false }
        return true
    }

    func equal(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        for j in 0..<a.count where bytes[a.lowerBound + j] != bytes[b.lowerBound + j] { return false }
        return true
    }

    /// The text of a range of the document (names, for messages).
    func text(_ r: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[r]), as: UTF8.self)
    }

    /// The byte at `k` as a message shows it.
    func describe(_ k: Int) -> String {
        switch bytes[k] {
        case 0x20: return "a space"
        case 0x09: return "a tab"
        case 0x0A, 0x0D: return "a line break"
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(bytes[k])))'"
        default: return "byte 0x\(String(bytes[k], radix: 16, uppercase: true))"
        }
    }

    // MARK: - Characters

    /// The index after the character starting with the non-ASCII byte at `k`, which must be well-formed
    /// UTF-8 and a character XML allows.
    func characterEnd(_ k: Int) throws(InterchangeError) -> Int {
        let p = bytes
        let b0 = p[k]
        func continuation(_ j: Int) -> Bool { j < p.count && p[j] & 0xC0 == 0x80 }
        var end: Int?
        switch b0 {
        case 0xC2...0xDF:
            if continuation(k + 1) { end = k + 2 }
        case 0xE0...0xEF:
            if continuation(k + 1) && continuation(k + 2) {
                let b1 = p[k + 1]
                // Not overlong, not a surrogate.
                if !(b0 == 0xE0 && b1 < 0xA0) && !(b0 == 0xED && b1 >= 0xA0) { end = k + 3 }
                if b0 == 0xEF && b1 == 0xBF && p[k + 2] >= 0xBE {
                    throw fail(k, "character U+FFF\(p[k + 2] == 0xBE ? "E" : "F") is not allowed in XML")
                }
            }
        case 0xF0...0xF4:
            if continuation(k + 1) && continuation(k + 2) && continuation(k + 3) {
                let b1 = p[k + 1]
                if !(b0 == 0xF0 && b1 < 0x90) && !(b0 == 0xF4 && b1 >= 0x90) { end = k + 4 }
            }
        default: break
        }
        guard let end else {
            throw fail(k, "not UTF-8 (byte 0x\(String(b0, radix: 16, uppercase: true))); convert the file to UTF-8")
        }
        return end
    }

    /// The error for an ASCII control character (XML allows tab, line feed and carriage return only).
    func controlCharacter(_ k: Int) -> InterchangeError {
        let hex = String(bytes[k], radix: 16, uppercase: true)
        return fail(k, "character U+\(String(repeating: "0", count: 4 - hex.count))\(hex) is not allowed in XML")
    }

    // MARK: - Names and skipped constructs

    /// Reads an XML name (element, attribute or processing-instruction target).
    mutating func readName(what: StaticString) throws(InterchangeError) -> Range<Int> {
        let p = bytes
        let start = i
        while i < p.count {
            let b = p[i]
            let letter = (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z")
            if letter || b == UInt8(ascii: "_") || b == UInt8(ascii: ":") {
                i += 1
            } else if b >= 0x80 {
                i = try characterEnd(i)
            } else if i > start
                && ((b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-") || b == UInt8(ascii: "."))
            {
                i += 1
            } else {
                break
            }
        }
        guard i > start else {
            throw fail(start, i < p.count ? "expected \(what), found \(describe(i))" : "the file ends where \(what) should be")
        }
        return start..<i
    }

    /// Steps over the character at `i` (a whole UTF-8 sequence), refusing the raw control characters XML forbids.
    mutating func stepCharacter() throws(InterchangeError) {
        let b = bytes[i]
        if b >= 0x80 {
            i = try characterEnd(i)
        } else if b < 0x20 && !isSpace(b) {
            throw controlCharacter(i)
        } else {
            i += 1
        }
    }

    /// Skips text between tags up to the next '<', checking its references and characters.
    mutating func skipText() throws(InterchangeError) {
        let p = bytes
        while i < p.count {
            let b = p[i]
            if b == UInt8(ascii: "<") { return }
            if b == UInt8(ascii: "&") { _ = try readReference() } else { try stepCharacter() }
        }
    }

    /// Moves past the next `terminator` from `k` (the end of a comment, CDATA section or processing
    /// instruction), checking the characters on the way.
    mutating func skipPast(_ terminator: StaticString, from k: Int, what: String, start: Int) throws(InterchangeError) {
        let p = bytes
        let first = terminator.utf8Start[0]
        i = k
        while i < p.count {
            let b = p[i]
            if b == first && matches(terminator, at: i) {
                i += terminator.utf8CodeUnitCount
                return
            }
            try stepCharacter()
        }
        throw fail(start, "\(what) that is never closed (no '\(terminator)')")
    }

    /// Skips a `<!DOCTYPE …>` with its internal subset: declarations are not used (entities other than
    /// the predefined ones are refused where they are referenced).
    mutating func skipDoctype() throws(InterchangeError) {
        let p = bytes
        let start = i
        i += 9
        var brackets = 0
        while i < p.count {
            let b = p[i]
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                let quoteStart = i
                i += 1
                while i < p.count && p[i] != b {
                    if p[i] >= 0x80 { i = try characterEnd(i) } else { i += 1 }
                }
                guard i < p.count else { throw fail(quoteStart, "a quoted string in the DOCTYPE that is never closed") }
                i += 1
            case UInt8(ascii: "<") where matches("<!--", at: i):
                try skipPast("-->", from: i + 4, what: "a comment", start: i)
            case UInt8(ascii: "["):
                brackets += 1
                i += 1
            case UInt8(ascii: "]"):
                brackets -= 1
                i += 1
            case UInt8(ascii: ">") where brackets <= 0:
                i += 1
                return
            default:
                try stepCharacter()
            }
        }
        throw fail(start, "a <!DOCTYPE that is never closed")
    }

    // MARK: - Positions

    /// An error at byte offset `k`, with its line and column (columns count characters, as editors do).
    func fail(_ k: Int, _ message: String) -> InterchangeError {
        let (line, lineStart) = lineAndStart(of: k)
        let column = String(decoding: UnsafeBufferPointer(rebasing: bytes[lineStart..<max(lineStart, min(k, bytes.count))]), as: UTF8.self).count + 1
        return InterchangeError(format: "OPML", line: line, column: column, message: message)
    }

    /// The line of byte offset `k`.
    func line(of k: Int) -> Int {
        lineAndStart(of: k).line
    }

    /// Counted only when needed (errors), so the reading loop keeps no position.
    private func lineAndStart(of k: Int) -> (line: Int, start: Int) {
        var line = 1
        var start = lineOneStart
        var j = lineOneStart
        let end = min(k, bytes.count)
        while j < end {
            let b = bytes[j]
            // CR LF, LF and a lone CR each end a line.
            if b == 0x0A || (b == 0x0D && (j + 1 >= bytes.count || bytes[j + 1] != 0x0A)) {
                line += 1
                start = j + 1
            }
            j += 1
        }
        return (line, start)
    }
}
