/// A place in a store's log of commits, from which ``Store/changeHistory(after:entities:)`` reads on (Core
/// Data's persistent history token). Keep the last one you processed, in memory or in the store itself
/// (`store.setAppValue("indexer.token", String(token.value))`).
///
/// ```swift
/// var token = try store.currentChangeToken()
/// // … later: everything committed since, by anyone
/// let history = try store.changeHistory(after: token)
/// token = history.token
/// ```
public struct ChangeToken: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number of the last commit it covers (commits are numbered in the order they were made).
    public let value: Int64

    /// The token for a number kept earlier (see ``value``).
    public init(_ value: Int64) { self.value = value }

    public static func < (a: ChangeToken, b: ChangeToken) -> Bool { a.value < b.value }
    public var description: String { "ChangeToken(\(value))" }
}
