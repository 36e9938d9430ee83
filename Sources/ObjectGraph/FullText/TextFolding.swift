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
        // The bytes are read in place (a native string's storage, no copy): the UTF-8 view's iterator and a
        // closure per byte cost about 2,600 instructions a 35-byte title, a tenth of a bulk insert's.
        var text = text
        let upper: Bool? = text.withUTF8 { bytes in
            var upper = false
            for b in bytes {
                if b >= 0x80 { return nil }
                if b &- 0x41 < 26 { upper = true }
            }
            return upper
        }
        switch upper {
        case false?:
            return text
        case true?:
            return text.withUTF8 { bytes in
                String(unsafeUninitializedCapacity: bytes.count) { out in
                    for i in bytes.indices {
                        let b = bytes[i]
                        out[i] = b &- 0x41 < 26 ? b | 0x20 : b
                    }
                    return bytes.count
                }
            }
        case nil:
            return text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        }
    }

    /// A fingerprint of how this build folds text, recorded beside an index: an index folded by another
    /// Unicode version is stale and built again.
    public static let version: String = {
        let probe = "AÄÉİıßŞǄΣςЁ日ﬁ\u{301}Ⅻ"
        return fold(probe).unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: ".")
    }()
}
