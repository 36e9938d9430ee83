/// What the outliner shows of an outline shared through a server, without knowing of servers: a few words
/// on the right of the status line, and messages (an action the server refused) on its left.
///
/// ```swift
/// app.sharing = mySyncLoop   // anything that says "offline · 3 pending"
/// ```
public protocol SharingIndicator: AnyObject, Sendable {
    /// A few words for the status line ("offline · 3 pending"), nil when there is nothing to say.
    var label: String? { get }
    /// Messages that arrived since the last call, oldest first.
    func takeMessages() -> [String]
}
