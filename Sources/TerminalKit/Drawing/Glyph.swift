import Synchronization

/// How a cell's symbol is packed into 64 bits: up to three code points of 21 bits each (most clusters: a
/// letter, a letter and its accent, a flag, an emoji with its skin tone, a pair joined by ZWJ), or, with the
/// top bit set, the number of a longer cluster in a table kept for the process.
///
/// The same symbol always packs to the same bits, so cells compare by their bits.
@usableFromInline
enum Glyph {
    static let interned: UInt64 = 1 << 63

    /// Distinct clusters of more than three code points kept at most. Text that shows more (a hostile outline
    /// of endless distinct combining sequences) gets U+FFFD for the rest, still of the cluster's width, so the
    /// table cannot grow without bound while the outliner runs.
    static let limit = 1 << 16

    private struct Table {
        /// Keyed by code points, not by `String`: strings that are canonically equivalent compare equal, and
        /// two spellings of a cluster must keep two numbers (they are different bytes to a terminal).
        var numbers: [[UInt32]: UInt32] = [:]
        var symbols: [String] = []
    }

    private static let table = Mutex(Table())

    /// The bits for `symbol` (empty: 0).
    static func pack(_ symbol: String) -> UInt64 {
        var bits: UInt64 = 0
        var count = 0
        for scalar in symbol.unicodeScalars {
            // A zero code point would read as "no more": such a cluster goes to the table.
            guard count < 3, scalar.value != 0 else { return intern(symbol) }
            bits |= UInt64(scalar.value) << (21 * UInt64(count))
            count += 1
        }
        return bits
    }

    private static func intern(_ symbol: String) -> UInt64 {
        let key = symbol.unicodeScalars.map(\.value)
        return table.withLock { t in
            if let n = t.numbers[key] { return interned | UInt64(n) }
            guard t.symbols.count < limit else { return 0xFFFD }
            let n = UInt32(t.symbols.count)
            t.symbols.append(symbol)
            t.numbers[key] = n
            return interned | UInt64(n)
        }
    }

    /// How many clusters the table holds (for tests: text must not fill it faster than it shows clusters).
    static var count: Int { table.withLock { $0.symbols.count } }

    /// The symbol `bits` were packed from.
    static func symbol(_ bits: UInt64) -> String {
        if bits & interned != 0 {
            let n = Int(truncatingIfNeeded: bits & 0xFFFF_FFFF)
            return table.withLock { t in n < t.symbols.count ? t.symbols[n] : "\u{FFFD}" }
        }
        var out = String.UnicodeScalarView()
        var rest = bits
        while rest != 0 {
            // Packed from valid scalars only, so each 21-bit field is one.
            if let scalar = Unicode.Scalar(UInt32(truncatingIfNeeded: rest & 0x1F_FFFF)) { out.append(scalar) }
            rest >>= 21
        }
        return String(out)
    }
}
