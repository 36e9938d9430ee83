import CTextScan
import TestSupport
import Testing

/// The search index's scanning kernel, 32 bytes at a time (AVX2) and 16 (SSE2, what a processor without
/// AVX2 runs), against a plain search: the same rows for every needle, at every length of text, including
/// matches that straddle the blocks' edges and the tails each loop leaves to the next.
struct TextScanKernelTests {
    /// Texts of `rows` rows of 2 columns, each ended by 0xFF, a missing one written as 0xFE 0xFF.
    static func texts(_ rows: [[[UInt8]?]]) -> [UInt8] {
        var out: [UInt8] = []
        for row in rows {
            for text in row {
                if let text { out += text } else { out.append(0xFE) }
                out.append(0xFF)
            }
        }
        return out
    }

    static func plain(_ rows: [[[UInt8]?]], _ needle: [UInt8]) -> [Int] {
        rows.indices.filter { r in
            rows[r].contains { text in
                guard let text, text.count >= needle.count else { return false }
                return (0...(text.count - needle.count)).contains { Array(text[$0..<$0 + needle.count]) == needle }
            }
        }
    }

    static func scan(_ bytes: [UInt8], _ needle: [UInt8], rows: Int, wide: Bool) -> [Int]? {
        var found = [Int](repeating: 0, count: rows)
        let n = bytes.withUnsafeBufferPointer { b in
            needle.withUnsafeBufferPointer { q in
                found.withUnsafeMutableBufferPointer { f in
                    burrow_text_scan_using(b.baseAddress, b.count, q.baseAddress, q.count, 2, f.baseAddress, rows, wide ? 1 : 0)
                }
            }
        }
        return n < 0 ? nil : Array(found.prefix(n))
    }

    @Test(arguments: TestSeed.seeds([0x5CA7, 0x5CA8])) func bothLoopsFindWhatAPlainSearchFinds(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let alphabet = Array("abcab xyzé".utf8)
        var wrong: [String] = []
        var hits = 0
        for trial in 0..<150 {
            let rows: [[[UInt8]?]] = (0..<(1 + rng.below(40))).map { _ in
                (0..<2).map { _ in
                    rng.below(5) == 0 ? nil : (0..<rng.below(70)).map { _ in alphabet[rng.below(alphabet.count)] }
                }
            }
            let bytes = Self.texts(rows)
            for _ in 0..<6 {
                var needle = (0..<(1 + rng.below(5))).map { _ in alphabet[rng.below(alphabet.count)] }
                // Invalid UTF-8 alone is never searched for (a needle is folded text): keep é whole.
                if needle.last == 0xC3 { needle.removeLast() }
                if needle.first.map({ $0 >= 0x80 && $0 < 0xC0 }) == true { needle.removeFirst() }
                guard !needle.isEmpty else { continue }
                let expected = Self.plain(rows, needle)
                hits += expected.count
                for wide in [true, false] {
                    let got = Self.scan(bytes, needle, rows: rows.count, wide: wide)
                    if got != expected {
                        wrong.append("trial \(trial) \(wide ? "32" : "16") bytes, \(needle): \(String(describing: got)) != \(expected)")
                    }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong, first: \(wrong.prefix(3)); \(rng.note)")
        #expect(hits > 1000, "the generator makes matches to find: \(hits)")
    }

    @Test func damagedTextsAreRefusedByBothLoops() {
        let good = Self.texts((0..<20).map { i in [Array("row \(i) with some text here".utf8), nil] })
        for wide in [true, false] {
            #expect(Self.scan(good, Array("text".utf8), rows: 20, wide: wide)?.count == 20)
            var stray = good
            stray[100] = 0xFE
            #expect(Self.scan(stray, Array("x".utf8), rows: 20, wide: wide) == nil, "a 0xFE inside a text")
            #expect(Self.scan(good, Array("x".utf8), rows: 21, wide: wide) == nil, "fewer texts than rows")
            #expect(Self.scan(Array(good.dropLast()), Array("x".utf8), rows: 20, wide: wide) == nil, "no end")
        }
    }
}
