import TerminalKit
import Testing

/// Checks the whole test screen against `expected` (rows as lines, trailing spaces ignored) and records a
/// line-by-line difference when they differ, at the caller's line.
///
/// ```swift
/// expectScreen(backend, """
///     Burrow
///     + Add to Burrow…
///     """)
/// ```
public func expectScreen(_ backend: TestBackend, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
    if let report = backend.difference(from: expected) {
        Issue.record(Comment(rawValue: report), sourceLocation: sourceLocation)
    }
}
