import Foundation

/// Objects a command is done with, kept until the `burrow` process exits instead of being released (see
/// `DatabaseOptions.leaveToExit`). Held here rather than leaked so they stay reachable: LeakSanitizer, run on
/// a sanitized `burrow`, would count none of them as lost. Only when the process
/// ends with the command (`BurrowMain.run(_:outliner:exitsAfter:)`): tests that run commands in-process let
/// them go.
final class KeptToExit: @unchecked Sendable {
    // @unchecked: `objects` and `exiting` are only touched under `lock` (in-process tests run commands in
    // parallel).
    private let lock = NSLock()
    private var objects: [AnyObject] = []
    private var exiting = false

    static let shared = KeptToExit()

    init() {}

    /// Set by `BurrowMain.run` when the process exits after it.
    func processExitsAfterRun() {
        lock.lock()
        defer { lock.unlock() }
        exiting = true
    }

    /// How many objects are kept (for tests).
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return objects.count
    }

    func keepIfExiting(_ object: AnyObject) {
        lock.lock()
        defer { lock.unlock() }
        if exiting { objects.append(object) }
    }
}
