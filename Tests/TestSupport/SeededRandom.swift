/// SplitMix64: small, fast and the same sequence on every platform and toolchain, so a randomized test that
/// fails replays exactly from its seed (the standard library's generator is neither seedable nor stable).
///
/// ```swift
/// @Test(arguments: TestSeed.seeds([1, 2, 3]))
/// func randomEdits(seed: UInt64) {
///     var rng = SeededRandom(seed: seed)
///     let i = Int.random(in: 0..<10, using: &rng)
///     #expect(check(i), rng.note)
/// }
/// ```
public struct SeededRandom: RandomNumberGenerator, Sendable {
    /// The seed it started from: what a failure must report.
    public let seed: UInt64
    private var state: UInt64

    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (0 when `bound` is 0), for picking an index or a position in a list that
    /// may be empty.
    public mutating func below(_ bound: Int) -> Int {
        bound <= 0 ? 0 : Int(next() % UInt64(bound))
    }

    /// One element of `elements`, or nil when it is empty.
    public mutating func pick<C: Collection>(_ elements: C) -> C.Element? {
        elements.isEmpty ? nil : elements[elements.index(elements.startIndex, offsetBy: below(elements.count))]
    }

    /// The seed and how to replay it, for a failure message.
    public var note: String { TestSeed.note(seed) }
}
