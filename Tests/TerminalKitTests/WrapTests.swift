import TerminalKit
import TestSupport
import Testing

/// `DisplayWidth.wrap`: lines of at most the width, broken after spaces, its own line breaks kept, wide
/// characters whole, and never a line wider than the width when each character fits.
@Suite struct WrapTests {
    @Test(arguments: [
        ("buy oat milk", 7, ["buy oat", "milk"]),
        ("buy oat milk", 12, ["buy oat milk"]),
        ("one\n\ntwo", 10, ["one", "", "two"]),
        ("abcdefghij", 4, ["abcd", "efgh", "ij"]),
        ("日本語のテキスト", 5, ["日本", "語の", "テキ", "スト"]),
        ("a  b", 2, ["a", "b"]),
        ("", 5, [""]),
        ("tab\there", 20, ["tab\there"])
    ])
    func table(text: String, width: Int, lines: [String]) {
        #expect(DisplayWidth.wrap(text, width: width) == lines)
    }

    @Test func noWidthNoLines() {
        #expect(DisplayWidth.wrap("text", width: 0).isEmpty)
    }

    /// Random text of ASCII words, wide characters, combining marks and controls: every line fits, and the
    /// lines hold every character of the text but the spaces at breaks.
    @Test(arguments: TestSeed.seeds([5, 6, 7]))
    func randomTextFits(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let pieces = ["a", "word", " ", " ", "日", "e\u{301}", "\u{1B}", "\t", "👍🏽", "\n"]
        for _ in 0..<200 {
            let text = (0..<rng.below(40)).map { _ in pieces[rng.below(pieces.count)] }.joined()
            let width = 2 + rng.below(12)
            let lines = DisplayWidth.wrap(text, width: width)
            for line in lines { #expect(DisplayWidth.of(line) <= width, "\(rng.note): \(line.debugDescription) in \(width)") }
            let kept = lines.joined().filter { $0 != " " && $0 != "\n" }
            #expect(kept == text.filter { $0 != " " && $0 != "\n" }, "\(rng.note): \(text.debugDescription)")
        }
    }
}
