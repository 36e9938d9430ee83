import Foundation

/// Objects a command is done with, kept until the process exits instead of being released (see
/// `DatabaseOptions.leaveToExit`). Held here rather than leaked so they stay reachable: LeakSanitizer, which
/// checks the sanitized build's commands as they exit, counts none of them as lost.
final class KeptToExit: @unchecked Sendable {
    // @unchecked: `objects` is only touched under `lock` (in-process tests run commands in parallel).
    private let lock = NSLock()
    private var objects: [AnyObject] = []

    static let shared = KeptToExit()

    func keep(_ object: AnyObject) {
        lock.lock()
        defer { lock.unlock() }
        objects.append(object)
    }
}
