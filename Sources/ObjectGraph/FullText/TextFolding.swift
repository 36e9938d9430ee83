import Foundation

/// The one way text is compared by full-text search: Unicode case folding and diacritics removed, so
/// “GÖDEL”, “Gödel” and “godel” are the same text, “Straße” contains “ss”, and “İ” folds to “i” (a dotless
/// “ı” stays its own letter). The store indexes folded text and folds each query the same way.
///
/// ```swift
/// TextFolding.fold("Gödel") == TextFolding.fold("GODEL")   // true: both are "godel"
/// ```
public enum TextFolding {
    /// `text` folded. ASCII text (most titles) is lowercased byte by byte, which is what Foundation's
    /// folding gives for it; other text goes through Foundation's case- and diacritic-insensitive folding.
    public static func fold(_ text: String) -> String {
        var ascii = true
        var hasUpper = false
        for b in text.utf8 {
            if b >= 0x80 {
                ascii = false
                break
            }
            if b >= 0x41 && b <= 0x5A { hasUpper = true }
        }
        if ascii {
            guard hasUpper else { return text }
            return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// A fingerprint of how this build folds text, recorded beside an index: an index folded by another
    /// Unicode version is stale and built again.
    public static let version: String = {
        let probe = "AÄÉİıßŞǄΣςЁ日ﬁ\u{301}Ⅻ"
        return fold(probe).unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: ".")
    }()
}
