import ObjectGraph

/// A name items are tagged with (`#work`, org's `:work:`): one object per name, linked to its items through
/// the many-to-many `Item.tags`/`Tag.items`.
public final class Tag: ManagedObject {
    /// The entity's name in the model: `FetchRequest(Tag.entityName)`.
    public static let entityName = "Tag"

    enum Slot {
        static let entity = OutlineModel.model.entity(Tag.entityName)!
        static let name = entity.slot("name")!
    }

    /// The tag as written, without `#` or colons.
    public var name: String {
        get { string(at: Slot.name) }
        set { self[slot: Slot.name] = newValue }
    }

    /// Why `name` cannot be a tag, or nil when it can: not empty, at most 100 characters, no colon (org
    /// separates tags with it), no space at either end and no control character (it is shown on a terminal).
    public static func problem(with name: String) -> String? {
        if name.isEmpty { return "a tag cannot be empty" }
        if name.count > 100 { return "a tag is at most 100 characters" }
        if name.contains(":") { return "a tag cannot contain “:”" }
        if name.first!.isWhitespace || name.last!.isWhitespace { return "a tag cannot start or end with a space" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" }) {
            return "a tag cannot contain a control character or a line break"
        }
        return nil
    }
}
