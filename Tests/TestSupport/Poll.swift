import Foundation

/// Waiting for something another process or thread does: a condition polled until it holds or a deadline
/// passes. A fixed sleep is either too short on a loaded machine (a flaky failure) or too long everywhere
/// else (a slow suite); polling returns as soon as the condition holds and fails only after the deadline.
///
/// ```swift
/// #expect(Poll.until(timeout: .seconds(5)) { FileManager.default.fileExists(atPath: pidFile) })
/// ```
public enum Poll {
    /// How long to wait between two checks: short next to any deadline, long enough not to spin.
    public static let interval: Duration = .milliseconds(10)

    /// Checks `condition` until it returns true (then true) or `timeout` has passed (then false).
    @discardableResult
    public static func until(timeout: Duration = .seconds(15), _ condition: () throws -> Bool) rethrows -> Bool {
        try value(timeout: timeout) { try condition() ? true : nil } ?? false
    }

    /// Calls `produce` until it returns a value (then that value) or `timeout` has passed (then nil).
    public static func value<T>(timeout: Duration = .seconds(15), _ produce: () throws -> T?) rethrows -> T? {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            if let value = try produce() { return value }
            if clock.now >= deadline { return nil }
            let (seconds, attoseconds) = interval.components
            Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
        }
    }
}
