/// A typed query matched loosely against titles, as pickers match: the query's characters in order, not
/// necessarily together, ignoring case. Case is folded with Unicode's lowercasing and characters are compared
/// as `Character`s (so an `é` typed matches `É`, or an `e` followed by a combining accent). A score ranks the
/// matches: characters that come together, at the start of words, and near the start of the title score more.
/// Blanks in the query are left out.
///
/// For example: `FuzzyMatch("gm").score("Groceries › Milk")` is higher than its score in `"Programme"`, and
/// `FuzzyMatch("mk").score("Kim")` is nil.
public struct FuzzyMatch: Sendable {
    /// The query as typed.
    public let query: String
    private let characters: [Character]
    /// The query's bytes when it is ASCII: an ASCII title is then matched byte by byte.
    private let bytes: [UInt8]?

    public init(_ query: String) {
        self.query = query
        // Spaces only separate what the user typed: “oat milk” finds “Oat milk” and “Oatmeal with milk”.
        let folded = String(Self.fold(query).filter { !$0.isWhitespace })
        characters = Array(folded)
        bytes = folded.utf8.allSatisfy { $0 < 0x80 } ? Array(folded.utf8) : nil
    }

    /// Nothing typed (or only blanks): everything matches, with the same score.
    public var isEmpty: Bool { characters.isEmpty }

    /// Text as matching compares it: for titles read once and matched many times.
    public static func fold(_ text: String) -> String { text.lowercased() }

    /// The score of `text`, or nil when the query is not in it.
    public func score(_ text: String) -> Int? { score(folded: Self.fold(text)) }

    /// The score of text already folded with `fold`, or nil when the query is not in it.
    public func score(folded text: String) -> Int? {
        if characters.isEmpty { return 0 }
        if let bytes, text.utf8.allSatisfy({ $0 < 0x80 }) {
            let fast = text.utf8.withContiguousStorageIfAvailable { Self.score($0, bytes, isWordCharacter: Self.isWordByte) }
            if let fast { return fast }
            return Self.score(Array(text.utf8), bytes, isWordCharacter: Self.isWordByte)
        }
        return Self.score(Array(text), characters) { $0.isLetter || $0.isNumber }
    }

    private static func isWordByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A)
    }

    /// The best of the first few windows of `text` that hold the query in order, each the shortest ending
    /// where it does (the first end from a start, then the last start before that end): so a tight match
    /// after a loose one is found, at a cost bounded whatever the title.
    private static func score<C: RandomAccessCollection>(
        _ text: C, _ query: [C.Element], isWordCharacter: (C.Element) -> Bool
    ) -> Int? where C.Element: Equatable, C.Index == Int {
        let n = text.count
        guard query.count <= n else { return nil }
        var best: Int?
        var from = 0
        for _ in 0..<4 {
            guard let (start, end) = window(text, query, from: from) else { break }
            let s = score(text, query, start: start, end: end, isWordCharacter: isWordCharacter)
            best = max(best ?? s, s)
            from = start + 1
            if from >= n { break }
        }
        return best
    }

    /// The first window from `from` that holds the query in order, shrunk from its end back.
    private static func window<C: RandomAccessCollection>(_ text: C, _ query: [C.Element], from: Int) -> (Int, Int)?
    where C.Element: Equatable, C.Index == Int {
        let base = text.startIndex
        var q = 0
        var end = -1
        for i in from..<text.count where text[base + i] == query[q] {
            q += 1
            if q == query.count {
                end = i
                break
            }
        }
        guard end >= 0 else { return nil }
        q = query.count - 1
        var i = end
        while i >= from {
            if text[base + i] == query[q] {
                if q == 0 { return (i, end) }
                q -= 1
            }
            i -= 1
        }
        return nil
    }

    /// Letters that come together, at word starts and near the start score; letters skipped inside the
    /// window cost more than letters after it, and a long title costs a little.
    private static func score<C: RandomAccessCollection>(
        _ text: C, _ query: [C.Element], start: Int, end: Int, isWordCharacter: (C.Element) -> Bool
    ) -> Int where C.Element: Equatable, C.Index == Int {
        let base = text.startIndex
        var score = 0
        var previous = -2
        var q = 0
        for i in start...end where q < query.count && text[base + i] == query[q] {
            score += 16
            if i == previous + 1 { score += 12 }
            if i == 0 || !isWordCharacter(text[base + i - 1]) { score += 10 }
            if i == 0 { score += 6 }
            previous = i
            q += 1
        }
        score -= (end - start + 1 - query.count)
        score -= min(start, 12)
        score -= (text.count - query.count) / 16
        return score
    }
}
