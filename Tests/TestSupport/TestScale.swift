import Foundation

/// How big the stress tests run. `swift test` (and CI) runs them at a size that keeps the suite within its
/// budget; `BURROW_TEST_SCALE=big` runs them at the size that finds rarer interleavings, for a change to
/// concurrent code or before a release (docs/TESTING.md has the command and what it takes).
///
/// ```swift
/// let commands = TestScale.size(ci: 120, big: 333)
/// ```
public enum TestScale {
    public static let environmentVariable = "BURROW_TEST_SCALE"

    /// True when the big size is asked for. Any value but `big` (or none) is CI's size; a misspelt value is a
    /// mistake worth stopping for, since a run that quietly took the small size would look like a big one.
    public static let isBig: Bool = {
        switch ProcessInfo.processInfo.environment[environmentVariable]?.trimmingCharacters(in: .whitespaces) {
        case nil, "", "ci": return false
        case "big": return true
        case let other?: fatalError("\(environmentVariable)=\(other): expected “big” or “ci”")
        }
    }()

    /// `ci`, or `big` under `BURROW_TEST_SCALE=big`.
    public static func size(ci: Int, big: Int) -> Int { isBig ? big : ci }
}
