extension OPMLReader {
    /// The encoding an XML declaration names, and where its value starts (for errors).
    struct DeclaredEncoding {
        let name: String
        let offset: Int
    }

    /// How the reader can take a declared encoding.
    enum EncodingSupport {
        /// UTF-8, or US-ASCII (a subset of it): read as they are.
        case utf8
        /// ISO-8859-1: transcoded to UTF-8 first.
        case latin1
        case unsupported
    }

    static func support(of encoding: String) -> EncodingSupport {
        switch encoding.lowercased() {
        case "utf-8", "utf8", "us-ascii", "ascii": .utf8
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1": .latin1
        default: .unsupported
        }
    }

    /// Skips a UTF-8 byte-order mark and reads the XML declaration if there is one (blank lines before it
    /// are tolerated); returns the encoding it names.
    mutating func readDeclaration() throws(InterchangeError) -> DeclaredEncoding? {
        let p = bytes
        if matches("\u{FEFF}", at: 0) {
            i = 3
            lineOneStart = 3
        }
        var k = i
        while k < p.count && isSpace(p[k]) { k += 1 }
        guard matches("<?xml", at: k), k + 5 < p.count, isSpace(p[k + 5]) || p[k + 5] == UInt8(ascii: "?") else { return nil }
        let start = k
        i = k + 5
        var version = false
        var encoding: DeclaredEncoding?
        var standalone = false
        while true {
            let before = i
            skipSpace()
            guard i < p.count else { throw fail(start, "an XML declaration that is never closed (no '?>')") }
            if matches("?>", at: i) {
                i += 2
                break
            }
            guard i > before else { throw fail(i, "expected a space or '?>' in the XML declaration, found \(describe(i))") }
            let name = try readName(what: "version, encoding or standalone in the XML declaration")
            skipSpace()
            guard i < p.count, p[i] == UInt8(ascii: "=") else { throw fail(i, "expected '=' after \(text(name)) in the XML declaration") }
            i += 1
            skipSpace()
            guard i < p.count, p[i] == UInt8(ascii: "\"") || p[i] == UInt8(ascii: "'") else {
                throw fail(i, "expected the value of \(text(name)) in quotes")
            }
            let valueStart = i + 1
            let value = try readValue(keeping: true) ?? ""
            switch text(name) {
            case "version" where !version:
                guard value.hasPrefix("1."), value.utf8.count > 2, value.utf8.dropFirst(2).allSatisfy(Self.isDigit) else {
                    throw fail(valueStart, "XML version \"\(value)\" is not one this reader knows (1.0 is)")
                }
                version = true
            case "encoding" where version && encoding == nil && !standalone:
                // EncName: a letter, then letters, digits, '.', '_' and '-'.
                guard let first = value.utf8.first, Self.isLetter(first),
                    value.utf8.allSatisfy({ Self.isLetter($0) || Self.isDigit($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D })
                else { throw fail(valueStart, "\"\(value)\" is not an encoding name") }
                encoding = DeclaredEncoding(name: value, offset: valueStart)
            case "standalone" where version && !standalone:
                guard value == "yes" || value == "no" else { throw fail(valueStart, "standalone is \"yes\" or \"no\", not \"\(value)\"") }
                standalone = true
            default:
                throw fail(name.lowerBound, "unexpected \(text(name)) in the XML declaration (it holds version, then encoding, then standalone)")
            }
        }
        guard version else { throw fail(start, "an XML declaration without its version") }
        return encoding
    }

    static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") }

    static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    /// ISO-8859-1 bytes as UTF-8: each byte is the scalar of the same value.
    static func utf8(fromLatin1 latin1: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(latin1.count + latin1.count / 8)
        for b in latin1 {
            if b < 0x80 {
                out.append(b)
            } else {
                out.append(0xC0 | b >> 6)
                out.append(0x80 | b & 0x3F)
            }
        }
        return out
    }
}
