/// The input side of a terminal: a stream of events.
public protocol InputSource: AnyObject {
    /// The next event, waiting at most `timeout` (forever when nil); nil when the time ran out first.
    ///
    /// A timeout lets the app react to changes from elsewhere (another process's commit) without a key press.
    func nextEvent(timeout: Duration?) -> InputEvent?
}
