/// Reads an Org file's bytes into nodes: its lines first, then the keywords the whole file names (they apply
/// to headlines above them too), then each headline with the lines below it as its note.
struct OrgReader {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Where the text before the first headline goes; without, it is a first item with an empty title.
    let preamble: ((String) -> Void)?

    init(_ bytes: UnsafeBufferPointer<UInt8>, preamble: ((String) -> Void)? = nil) {
        self.bytes = bytes
        self.preamble = preamble
    }

    func read() throws(InterchangeError) -> [OutlineNode] {
        var builder = OutlineBuilder()
        try read(into: &builder)
        return builder.finish()
    }

    func read(into builder: inout OutlineBuilder) throws(InterchangeError) {
        // A byte-order mark is no part of the first line.
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let lines = Self.lines(of: bytes, from: start, crlf: Self.isCRLF(bytes, from: start))
        // The headlines' line numbers; the lines between two of them are a section, the note of the first.
        var headlines: [Int] = []
        // The sections holding a line that may name keywords (most files have one or none).
        var keywordSections: [Int] = []
        for (k, line) in lines.enumerated() {
            if stars(line) > 0 {
                headlines.append(k)
            } else if OrgKeywords.keywordValue(bytes, line) != nil, keywordSections.last != headlines.count {
                keywordSections.append(headlines.count)
            }
        }
        /// Section `s`'s lines: before the first headline for 0, else below headline `s - 1`.
        func section(_ s: Int) -> Range<Int> {
            (s == 0 ? 0 : headlines[s - 1] + 1)..<(s < headlines.count ? headlines[s] : lines.count)
        }
        var keywords = OrgKeywords()
        for s in keywordSections { keywords.scan(bytes, lines: lines[section(s)]) }

        var scratch: [UInt8] = []
        // Text before the first headline (`#+TITLE:`, settings, an introduction) is kept as the note of a
        // first item with an empty title, which the writer writes back above the first headline.
        let preamble = section(0)
        if lines[preamble].contains(where: { line in bytes[line].contains { $0 != space && $0 != tab } }) {
            let text = note(lines[preamble], &scratch)
            if let handler = self.preamble { handler(text) } else { builder.add(OutlineNode("", note: text), depth: 0) }
        }
        // The star counts of the open headlines: a headline's parent is the nearest one above with fewer
        // stars, as in Emacs, so `*` then `***` nests the second under the first.
        var open: [Int] = []
        for (h, k) in headlines.enumerated() {
            let line = lines[k]
            let count = stars(line)
            while let last = open.last, last >= count { open.removeLast() }
            guard open.count < OutlineBuilder.maximumLevels else {
                throw InterchangeError(
                    format: "Org", line: k + 1, column: 1,
                    message: "headline is at level \(open.count + 1); Org holds at most \(OutlineBuilder.maximumLevels) levels (use OPML or JSON)")
            }
            let depth = open.count
            open.append(count)
            let headline = Array(UnsafeBufferPointer(rebasing: bytes[(line.lowerBound + count + 1)..<line.upperBound]))
            let body = section(h + 1)
            let (head, taken) = OrgHead.read(
                headline, section: { k in k < body.count ? Array(UnsafeBufferPointer(rebasing: bytes[lines[body.lowerBound + k]])) : nil },
                keywords: keywords)
            var extras = head.extras
            // The file's own text of the head, kept when the writer would write it otherwise (spacing, a
            // day's name in another language), so that an unchanged file is written back byte for byte.
            var raw = [headline]
            for k in body.lowerBound..<(body.lowerBound + taken) { raw.append(Array(UnsafeBufferPointer(rebasing: bytes[lines[k]]))) }
            if raw != head.lines(depth: depth, keywords: keywords) {
                var e = extras ?? OutlineNode.Extras()
                e.orgHead = String(decoding: Array(raw.joined(separator: [0x0A])), as: UTF8.self)
                extras = e
            }
            let noteLines = (body.lowerBound + taken)..<body.upperBound
            var text = noteLines.isEmpty ? nil : note(lines[noteLines], &scratch)
            // The writer's mark before a note that would otherwise start the head (a planning line).
            if let t = text, t.utf8.starts(with: OrgOutline.zeroWidthSpace) { text = String(t.unicodeScalars.dropFirst()) }
            builder.add(OutlineNode(String(decoding: head.title, as: UTF8.self), note: text, isDone: head.isDone, extras: extras), depth: depth)
        }
    }

    /// The stars of a headline (a run of `*` at the start of the line, then a space), or 0.
    private func stars(_ line: Range<Int>) -> Int {
        var i = line.lowerBound
        while i < line.upperBound, bytes[i] == star { i += 1 }
        return i > line.lowerBound && i < line.upperBound && bytes[i] == space ? i - line.lowerBound : 0
    }

    /// The lines joined by line feeds, each without the comma the writer puts before a line that would be
    /// a headline (`,* text`, as Org escapes such lines in blocks).
    private func note(_ lines: ArraySlice<Range<Int>>, _ scratch: inout [UInt8]) -> String {
        scratch.removeAll(keepingCapacity: true)
        for k in lines.indices {
            if k > lines.startIndex { scratch.append(0x0A) }
            let line = lines[k]
            let escaped = OrgOutline.isHeadline(bytes[line], afterCommas: 1)
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[(escaped ? line.lowerBound + 1 : line.lowerBound)..<line.upperBound]))
        }
        return String(decoding: scratch, as: UTF8.self)
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// The lines of `bytes` from `start`, split at LF; with `crlf`, each without the CR before its LF. The
    /// empty line after a final line feed is not a line.
    static func lines(of bytes: UnsafeBufferPointer<UInt8>, from start: Int, crlf: Bool) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var lineStart = start
        var i = start
        while i < bytes.count {
            if bytes[i] == 0x0A {
                out.append(lineStart..<(crlf && i > lineStart && bytes[i - 1] == 0x0D ? i - 1 : i))
                lineStart = i + 1
            }
            i += 1
        }
        if lineStart < bytes.count { out.append(lineStart..<bytes.count) }
        return out
    }

    /// Whether the bytes have line feeds and a CR before each: a Windows file, whose CRs are no text (as
    /// Emacs reads it). In a file with any LF alone a CR is text, so a note line can end in one.
    static func isCRLF(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        var sawLineFeed = false
        for i in start..<bytes.count where bytes[i] == 0x0A {
            guard i > start, bytes[i - 1] == 0x0D else { return false }
            sawLineFeed = true
        }
        return sawLineFeed
    }
}

private let space = UInt8(ascii: " ")
private let tab = UInt8(ascii: "\t")
private let star = UInt8(ascii: "*")
