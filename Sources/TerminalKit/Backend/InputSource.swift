/// The input side of a terminal: a stream of events.
public protocol InputSource: AnyObject {
    /// The next event, waiting at most `timeout` (forever when nil); nil when the time ran out first.
    ///
    /// A timeout lets the app react to changes from elsewhere (another process's commit) without a key press.
    func nextEvent(timeout: Duration?) -> InputEvent?

    /// As `nextEvent(timeout:)`, but also returns nil as soon as `fileDescriptor` is readable (another
    /// process's commit, seen by a `StoreWatcher`), so the app can take it in at once.
    func nextEvent(timeout: Duration?, wakingOn fileDescriptor: Int32?) -> InputEvent?

    /// False when the last `nextEvent(timeout:wakingOn:)` saw its descriptor not readable, so there is nothing
    /// to read from it yet (a read would only say so); true when it may be.
    var descriptorMayBeReady: Bool { get }
}

extension InputSource {
    /// A source that cannot wait on a file descriptor waits for its timeout; the caller's timer still works.
    public func nextEvent(timeout: Duration?, wakingOn fileDescriptor: Int32?) -> InputEvent? {
        nextEvent(timeout: timeout)
    }

    /// A source that does not watch descriptors cannot say: a caller reads them.
    public var descriptorMayBeReady: Bool { true }
}
