import Foundation

/// How big the stress tests run. `swift test` (and CI) runs them at a size that keeps the suite within its
/// budget; `BURROW_TEST_SCALE=big` runs them at the size that finds rarer interleavings, for a change to
/// concurrent code or before a release (docs/TESTING.md has the command and what it takes);
/// `BURROW_TEST_SCALE=small` is the sanitizer's pass in `.ci/run`, where a test whose size only multiplies
/// the same code paths (a hundred thousand rows where ten thousand cross the same buffers) runs smaller: the
/// sanitizer checks each path's memory use, and the plain pass has checked the size.
///
/// ```swift
/// let commands = TestScale.size(ci: 120, big: 333)
/// let rows = TestScale.size(ci: 100_000, big: 100_000, small: 10_000)
/// ```
public enum TestScale {
    public static let environmentVariable = "BURROW_TEST_SCALE"

    /// The sizes `BURROW_TEST_SCALE` names.
    enum Scale { case small, ci, big }

    /// The size asked for; none is CI's. A misspelt value is a mistake worth stopping for, since a run that
    /// quietly took CI's size would look like a big one.
    static let scale: Scale = {
        switch ProcessInfo.processInfo.environment[environmentVariable]?.trimmingCharacters(in: .whitespaces) {
        case nil, "", "ci": return .ci
        case "big": return .big
        case "small": return .small
        case let other?: fatalError("\(environmentVariable)=\(other): expected “big”, “ci” or “small”")
        }
    }()

    /// `ci`, `big` under `BURROW_TEST_SCALE=big`, `small` under `BURROW_TEST_SCALE=small` (`ci` when the test
    /// names no small size).
    public static func size(ci: Int, big: Int, small: Int? = nil) -> Int {
        switch scale {
        case .small: small ?? ci
        case .ci: ci
        case .big: big
        }
    }
}
