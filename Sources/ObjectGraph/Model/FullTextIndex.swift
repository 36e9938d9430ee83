/// A full-text index over some of an entity's string attributes: the store keeps it in the transaction of
/// every write, and ``Context/fullTextMatches(_:entity:among:limit:)`` finds the rows whose indexed text
/// contains a string, ignoring case and diacritics (see ``TextFolding``).
///
/// ```swift
/// Entity("Item") {
///     Attribute("title", .string)
///     Attribute("note", .string, optional: true)
///     FullTextIndex("title", "note")
/// }
/// ```
public struct FullTextIndex: Sendable, Hashable, Codable {
    /// The indexed attributes, each a stored string attribute of the entity.
    public let attributes: [String]

    /// A full-text index over the stored string attributes named.
    public init(_ attributes: String...) {
        self.attributes = attributes
    }
}
