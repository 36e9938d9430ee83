import Foundation

/// The seeds of randomized tests. They are fixed, so every run tests the same cases and a failure
/// reproduces; `BURROW_TEST_SEED` replaces them without editing a test: a number runs that seed alone (to
/// replay a failure), `random` draws a fresh one per test (to explore; a failure prints it), `first` runs
/// each test's first seed only (CI's sanitizer pass: it checks each code path's memory use, which more seeds
/// of the same test mostly walk again).
///
/// ```sh
/// BURROW_TEST_SEED=12 swift test --filter RandomizedResultsTests
/// ```
public enum TestSeed {
    public static let environmentVariable = "BURROW_TEST_SEED"

    /// The seeds a parameterized test runs: `defaults`, or the one seed the environment names.
    public static func seeds(_ defaults: [UInt64]) -> [UInt64] {
        if firstOnly { return Array(defaults.prefix(1)) }
        return override.map { [$0()] } ?? defaults
    }

    /// The seed of a test that runs one: `fallback`, or the one the environment names.
    public static func seed(_ fallback: UInt64) -> UInt64 {
        override?() ?? fallback
    }

    /// What a failure message says about its seed.
    public static func note(_ seed: UInt64) -> String {
        "seed \(seed) (replay: \(environmentVariable)=\(seed))"
    }

    /// True under `BURROW_TEST_SEED=first`.
    private static let firstOnly = ProcessInfo.processInfo.environment[environmentVariable]?.trimmingCharacters(in: .whitespaces) == "first"

    /// The environment's seed, drawn at each call for `random`; nil when the variable is unset or empty.
    /// A value that is neither is a mistake worth stopping for: silently running the fixed seeds instead
    /// would look like a replay that passed.
    private static let override: (@Sendable () -> UInt64)? = {
        guard
            let text = ProcessInfo.processInfo.environment[environmentVariable]?
                .trimmingCharacters(in: .whitespaces), !text.isEmpty, text != "first"
        else { return nil }
        if text == "random" {
            // The one unseeded draw: it picks a seed, which every failure then reports.
            return { UInt64.random(in: 0..<1_000_000_000) }
        }
        guard let seed = UInt64(text) else {
            fatalError("\(environmentVariable)=\(text): expected a number, “random” or “first”")
        }
        return { seed }
    }()
}
