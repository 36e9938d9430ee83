import ObjectGraph

/// Which characters of a text a search matched, found the way the index matches (folded by
/// `TextFolding`), then mapped back to the text's own grapheme clusters: “GÖDEL” highlights all of
/// “Gödel”, and a letter with a combining mark is highlighted whole.
enum SearchHighlight {
    /// For each character (grapheme cluster) of `text`, true when a match of `query` covers any of it.
    static func matched(_ query: String, in text: String) -> [Bool] {
        let needle = Array(TextFolding.fold(query).unicodeScalars)
        var scalars: [Unicode.Scalar] = []
        var owner: [Int] = []
        var count = 0
        for (k, c) in text.enumerated() {
            for s in TextFolding.fold(String(c)).unicodeScalars {
                scalars.append(s)
                owner.append(k)
            }
            count = k + 1
        }
        var out = [Bool](repeating: false, count: count)
        guard !needle.isEmpty, needle.count <= scalars.count else { return out }
        for start in 0...(scalars.count - needle.count) where scalars[start] == needle[0] {
            guard scalars[start..<start + needle.count].elementsEqual(needle) else { continue }
            for i in start..<start + needle.count { out[owner[i]] = true }
        }
        return out
    }

    /// `text` cut into runs of matched and unmatched characters, in order.
    static func runs(_ query: String, in text: String) -> [(text: Substring, matched: Bool)] {
        let flags = matched(query, in: text)
        var out: [(text: Substring, matched: Bool)] = []
        var start = text.startIndex
        var i = text.startIndex
        var k = 0
        while i < text.endIndex {
            let next = text.index(after: i)
            if next == text.endIndex || flags[k] != flags[k + 1] {
                out.append((text[start..<next], flags[k]))
                start = next
            }
            i = next
            k += 1
        }
        return out
    }
}
