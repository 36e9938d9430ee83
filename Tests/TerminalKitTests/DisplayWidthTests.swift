import TestSupport
import Testing

@testable import TerminalKit

struct DisplayWidthTests {
    @Test(arguments: [
        ("", 0), ("abc", 3), ("café", 4), ("cafe\u{301}", 4), ("e\u{301}\u{302}", 1),
        ("日本", 4), ("한국어", 6), ("ｆｕｌｌ", 8), ("中a文", 5),
        ("😀", 2), ("👍🏽", 2), ("🇫🇷", 2), ("👨‍👩‍👧", 2), ("❤️", 2), ("❤", 1), ("☕", 2),
        ("\u{200D}", 0), ("\u{FEFF}", 0),
        ("\u{1B}", 2), ("a\u{07}b", 4), ("\t", 2), ("\u{7F}", 2), ("\u{9B}", 8), ("\u{202E}", 8), ("\r\n", 4)
    ])
    func widthOfText(text: String, width: Int) {
        #expect(DisplayWidth.of(text) == width, "“\(text.debugDescription)”")
    }

    @Test(arguments: [
        ("Groceries", 6, "Groce…"), ("Groceries", 9, "Groceries"), ("Groceries", 1, "…"), ("Groceries", 0, ""),
        ("日本語", 4, "日…"), ("日本語", 5, "日本…"), ("日本語", 6, "日本語"), ("日本語", 2, "…"),
        ("cafe\u{301} au lait", 5, "cafe\u{301}…"), ("a\u{1B}bc", 3, "a…"), ("a\u{1B}bc", 4, "a\u{1B}…"),
        ("😀😀😀", 5, "😀😀…")
    ])
    func truncation(text: String, width: Int, expected: String) {
        let cut = DisplayWidth.truncate(text, to: width)
        #expect(cut == expected)
        #expect(DisplayWidth.of(cut) <= width)
    }

    @Test(arguments: [
        ("Burrow › Groceries › Dairy", 12, "…ies › Dairy"), ("Burrow › Dairy", 20, "Burrow › Dairy"),
        ("日本語のテキスト", 7, "…キスト"), ("abc", 1, "…")
    ])
    func leadingTruncation(text: String, width: Int, expected: String) {
        #expect(DisplayWidth.truncateLeading(text, to: width) == expected)
    }

    @Test(arguments: [
        ("ab", 4, "ab  "), ("日本", 5, "日本 "), ("日本語", 5, "日本…"), ("日本語", 4, "日… "), ("abc", 0, "")
    ])
    func padding(text: String, width: Int, expected: String) {
        let padded = DisplayWidth.pad(text, to: width)
        #expect(padded == expected)
        #expect(DisplayWidth.of(padded) == width)
    }

    /// Every code point measured a code point at a time is a whole character wherever it stands among its
    /// kind, and as wide as the measure by characters says. Fails for a combining mark, a joiner, a regional
    /// indicator or a Hangul jamo put in the set, or a wide symbol measured as narrow.
    @Test func standaloneCodePointsAreWholeCharactersOfTheirWidth() {
        let all = (0...0x10FFFF).compactMap { v in DisplayWidth.standaloneWidth(UInt32(v)).map { (Unicode.Scalar(UInt32(v))!, $0) } }
        #expect(all.count > 30_000)
        var wrong: [String] = []
        for (scalar, width) in all {
            let c = Character(scalar), s = String(scalar)
            if width != DisplayWidth.of(c) || Sanitizer.replacement(for: scalar) != nil { wrong.append("U+\(String(scalar.value, radix: 16)) width") }
            // Nothing joins it to the one before or after, nor to ASCII, nor to itself.
            if (s + s).count != 2 || ("a" + s + "a").count != 3 || ("\u{AC00}" + s + "\u{4E00}").count != 3 {
                wrong.append("U+\(String(scalar.value, radix: 16)) joins")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(20))")
        // Text of them, in random order: one character per code point, the same width either way.
        var rng = SeededRandom(seed: 34)
        for _ in 0..<2_000 {
            let scalars = (0..<Int.random(in: 1...40, using: &rng)).map { _ in all[Int.random(in: 0..<all.count, using: &rng)].0 }
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            #expect(text.count == scalars.count, "\(text.debugDescription)")
            #expect(DisplayWidth.of(text) == text.reduce(0) { $0 + DisplayWidth.of($1) }, "\(text.debugDescription)")
        }
    }

    @Test func everyWideCharacterIsMeasuredByItsTable() {
        #expect(DisplayWidth.of(scalar: "\u{4E00}") == 2)
        #expect(DisplayWidth.of(scalar: "\u{300}") == 0)
        #expect(DisplayWidth.of(scalar: "A") == 1)
        #expect(DisplayWidth.of(scalar: "\u{10FFFD}") == 1)
        // The tables are sorted, non-overlapping ranges (binary search depends on it).
        for table in [DisplayWidth.wide, DisplayWidth.zero, DisplayWidth.narrowToWideWithVS16] {
            for (a, b) in zip(table, table.dropFirst()) { #expect(a.upperBound < b.lowerBound) }
        }
    }
}
