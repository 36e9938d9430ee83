import ObjectGraph

/// One entry of the outline: a title, an optional note, a done flag, its place among its siblings and
/// its sub-items.
public final class Item: ManagedObject {
    /// Slots resolved once, so the accessors the UI calls per row skip the name lookup.
    enum Slot {
        static let entity = OutlineModel.model.entity("Item")!
        static let title = entity.slot("title")!
        static let note = entity.slot("note")!
        static let done = entity.slot("done")!
        static let order = entity.slot("order")!
        static let childCount = entity.slot("childCount")!
        static let rootMarker = entity.slot("rootMarker")!
    }

    public var title: String {
        get { string(at: Slot.title) }
        set { self[slot: Slot.title] = newValue }
    }

    public var note: String? {
        get { self[slot: Slot.note] }
        set { self[slot: Slot.note] = newValue }
    }

    public var isDone: Bool {
        get { bool(at: Slot.done) }
        set { self[slot: Slot.done] = newValue }
    }

    /// The fractional sibling-order key (see ``OrderKey``).
    public var order: String {
        get { string(at: Slot.order) }
        set { self[slot: Slot.order] = newValue }
    }

    /// How many direct sub-items the item has as last saved: the store keeps it in every write, so a level
    /// never counts rows to show it. For display; whether an item has sub-items is decided by reading them.
    public var childCount: Int {
        Int(integer(at: Slot.childCount))
    }

    /// True for the one item at the top of the outline.
    public var isRoot: Bool { (self[slot: Slot.rootMarker] as Int64?) != nil }

    public var parent: Item? {
        object("parent") as? Item
    }
}
