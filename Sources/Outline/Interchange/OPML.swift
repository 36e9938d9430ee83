import Foundation

/// OPML 2.0 as Workflowy, Dynalist and OmniOutliner write it: nested `outline` elements with `text`,
/// `_note` and `_complete="true"`; entities and CDATA are understood; other attributes are ignored. `text`
/// and `_note` hold HTML, as the spec allows and Workflowy writes: its markup is read as Markdown
/// (`OPMLMarkup`), and Burrow writes them as HTML text (a `<` in a title is `&amp;lt;`).
public enum OPML {
    /// Reads OPML text. The text is decoded already, so the encoding its XML declaration names is not
    /// checked (read a file's bytes with ``read(bytes:)`` to have it honoured).
    public static func read(_ text: String) throws(InterchangeError) -> [OutlineNode] {
        var text = text
        return try text.withUTF8 { utf8 in
            Result { () throws(InterchangeError) -> [OutlineNode] in
                var reader = OPMLReader(utf8)
                _ = try reader.readDeclaration()
                return try reader.readElements()
            }
        }.get()
    }

    /// Reads an OPML file's bytes: UTF-8 (a byte-order mark is skipped) or US-ASCII, or ISO-8859-1 when its
    /// XML declaration says so. Other encodings and bytes that are not UTF-8 are errors with their position.
    public static func read(bytes: some ContiguousBytes) throws(InterchangeError) -> [OutlineNode] {
        var builder = OutlineBuilder()
        _ = try bytes.withUnsafeBytes { raw in
            Result { () throws(InterchangeError) -> Bool in
                try readFile(raw.assumingMemoryBound(to: UInt8.self)) { node, depth, _ in
                    builder.add(node, depth: depth)
                    return true
                }
            }
        }.get()
        return builder.finish()
    }

    /// Reads an OPML file's bytes as ``read(bytes:)`` does, handing each outline to `each` as soon as its
    /// start tag is read, with its depth (0 for a child of `<body>`), in document order, without building
    /// the tree: for imports too big to hold twice. Throws `each`'s errors, and ``InterchangeError`` when
    /// the file is not well-formed (found after `each` has seen what comes before the fault).
    /// `mappedFromFile`: the bytes are a file mapped read-only (`mmap`), whose pages read already may be
    /// given back to the kernel as the reading goes on (never say so of other memory: it would read as zeros).
    ///
    /// ```swift
    /// try OPML.read(bytes: data) { node, depth in try loader.add(node, depth: depth) }
    /// ```
    public static func read(bytes: some ContiguousBytes, mappedFromFile: Bool = false, each: (OutlineNode, Int) throws -> Void) throws {
        var failure: (any Error)?
        _ = try bytes.withUnsafeBytes { raw in
            Result { () throws(InterchangeError) -> Bool in
                let file = raw.assumingMemoryBound(to: UInt8.self)
                var released = 0
                return try readFile(file) { node, depth, offset in
                    do {
                        try each(node, depth)
                    } catch {
                        failure = error
                        return false
                    }
                    // A mapped file's pages read already are given back as the reading goes on, so a file
                    // of 77 MB does not stay resident whole (they are read again from the file if an error
                    // message needs them).
                    if mappedFromFile && offset >= 0 && offset - released >= releaseStep {
                        release(file, upTo: offset)
                        released = offset
                    }
                    return true
                }
            }
        }.get()
        if let failure { throw failure }
    }

    private static let releaseStep = 8 << 20

    /// Tells the kernel the pages of a mapped file before `offset` are not needed now: they are dropped,
    /// and read from the file again if touched (an error message counting lines).
    private static func release(_ file: UnsafeBufferPointer<UInt8>, upTo offset: Int) {
        #if canImport(Glibc)
            guard let base = file.baseAddress else { return }
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            let start = (Int(bitPattern: base) + page - 1) / page * page
            let end = (Int(bitPattern: base) + offset) / page * page
            guard end > start, let p = UnsafeMutableRawPointer(bitPattern: start) else { return }
            _ = madvise(p, end - start, MADV_DONTNEED)
        #endif
    }

    private static func readFile(_ file: UnsafeBufferPointer<UInt8>, emit: (OutlineNode, Int, Int) -> Bool) throws(InterchangeError) -> Bool {
        // UTF-16 and UTF-32 start with their byte-order mark, or with zero bytes beside the first '<'.
        if file.starts(with: [0xFF, 0xFE]) || file.starts(with: [0xFE, 0xFF]) || (file.count >= 2 && (file[0] == 0 || file[1] == 0)) {
            throw InterchangeError(format: "OPML", line: 1, column: 1, message: "the file is UTF-16 or UTF-32; convert it to UTF-8")
        }
        var reader = OPMLReader(file)
        guard let encoding = try reader.readDeclaration() else { return try reader.readElements(emit: emit) }
        switch OPMLReader.support(of: encoding.name) {
        case .utf8:
            return try reader.readElements(emit: emit)
        case .latin1:
            guard reader.lineOneStart == 0 else {
                throw reader.fail(encoding.offset, "the file starts with a UTF-8 byte-order mark but declares encoding \(encoding.name)")
            }
            return try OPMLReader.utf8(fromLatin1: file).withUnsafeBufferPointer { utf8 in
                Result { () throws(InterchangeError) -> Bool in
                    var transcoded = OPMLReader(utf8)
                    _ = try transcoded.readDeclaration()
                    // Offsets in the converted copy are not the file's: nothing of it is given back.
                    return try transcoded.readElements { node, depth, _ in emit(node, depth, -1) }
                }
            }.get()
        case .unsupported:
            throw reader.fail(
                encoding.offset,
                "encoding \(encoding.name) is not supported: convert the file to UTF-8 and declare encoding=\"UTF-8\"")
        }
    }

    /// The outline as OPML 2.0 whose head holds `title`.
    public static func write(_ nodes: [OutlineNode], title: String) -> String {
        var writer = OPMLWriter(title: title)
        return writer.write(nodes)
    }

    /// The attributes Burrow writes an `OutlineNode.Extras` as, in its order (plain text, not HTML).
    /// The tags of a `_tags` value (`:work:home:`), each once, in order.
    static func tags(_ value: String) -> [String] {
        var out: [String] = []
        for tag in value.split(separator: ":") where !tag.isEmpty && !out.contains(String(tag)) { out.append(String(tag)) }
        return out
    }

    static let extrasAttributes = ["_state", "_priority", "_scheduled", "_deadline", "_closed", "_properties", "_orgHead"]

    /// The number a character reference's digits (`&#233;`, `&#xE9;`) starting at `start` make, and where
    /// they end; saturated just above the last scalar, so any number of digits cannot overflow. Shared by the
    /// XML reader and the HTML in attributes (`OPMLMarkup`).
    static func referenceNumber<Bytes: RandomAccessCollection<UInt8>>(_ p: Bytes, from start: Int, hex: Bool) -> (value: UInt32, end: Int)
    where Bytes.Index == Int {
        var i = start
        var value: UInt32 = 0
        while i < p.endIndex {
            let b = p[i]
            let digit: UInt32
            if b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") {
                digit = UInt32(b - UInt8(ascii: "0"))
            } else if hex && (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "f") {
                digit = UInt32((b | 0x20) - UInt8(ascii: "a") + 10)
            } else {
                break
            }
            value = min(value * (hex ? 16 : 10) + digit, 0x11_0000)
            i += 1
        }
        return (value, i)
    }

    /// The deepest indentation written, in levels of two spaces.
    static let maximumIndent = 32

    /// Escapes text for an attribute: also line breaks and tabs, so they survive attribute normalisation,
    /// and characters XML 1.0 cannot hold at all as a private-use scalar (see `unescapeControls`). `html`:
    /// the attribute holds HTML (`text` and `_note`, see `OPMLMarkup`), so `&`, `<` and `>` are HTML's
    /// entities escaped once more (`a < b` is `a &amp;lt; b`), as Workflowy writes a `<` typed as text.
    static func escape(_ s: String, html: Bool = false, into out: inout [UInt8]) {
        var s = s
        s.withUTF8 { bytes in
            // Most titles need no escaping: copy them whole.
            if !bytes.contains(where: { $0 < 0x20 || $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 >= 0xEE }) {
                out.append(contentsOf: bytes)
                return
            }
            for u in String(decoding: bytes, as: UTF8.self).unicodeScalars {
                switch u {
                case "&": out += Array((html ? "&amp;amp;" : "&amp;").utf8)
                case "<": out += Array((html ? "&amp;lt;" : "&lt;").utf8)
                case ">": out += Array((html ? "&amp;gt;" : "&gt;").utf8)
                case "\"": out += Array("&quot;".utf8)
                case "\n": out += Array("&#10;".utf8)
                case "\r": out += Array("&#13;".utf8)
                case "\t": out += Array("&#9;".utf8)
                default:
                    if u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF {
                        // XML 1.0 forbids C0 controls even as references: keep them as private-use scalars.
                        out += Array(String(Unicode.Scalar(0xF0000 + u.value)!).utf8)
                    } else {
                        out += Array(String(u).utf8)
                    }
                }
            }
        }
    }

    static func unescapeControls(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { $0.value >= 0xF0000 && $0.value <= 0xFFFFF }) else { return s }
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            let v = u.value
            if v >= 0xF0000, let original = Unicode.Scalar(v - 0xF0000),
                original.value < 0x20 || original.value == 0xFFFE || original.value == 0xFFFF
            {
                out.append(original)
            } else {
                out.append(u)
            }
        }
        return String(out)
    }
}
