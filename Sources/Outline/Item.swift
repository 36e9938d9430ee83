import ObjectGraph

/// One entry of the outline: a title, an optional note, a done flag, its place among its siblings and
/// its sub-items.
public final class Item: ManagedObject {
    public var title: String {
        get { self["title"] }
        set { self["title"] = newValue }
    }

    public var note: String? {
        get { self["note"] }
        set { self["note"] = newValue }
    }

    public var isDone: Bool {
        get { self["done"] }
        set { self["done"] = newValue }
    }

    /// The fractional sibling-order key (see ``OrderKey``).
    public var order: String {
        get { self["order"] }
        set { self["order"] = newValue }
    }

    /// How many direct sub-items the item has, kept with every change so a level never counts rows.
    public var childCount: Int {
        get { self["childCount"] }
        set { self["childCount"] = newValue }
    }

    /// True for the one item at the top of the outline.
    public var isRoot: Bool { self["rootMarker"] as Int64? != nil }

    public var parent: Item? {
        object("parent") as? Item
    }

    /// Keeps the parent's count of sub-items right. Skipped in a cascade: the parent is going too.
    public override func prepareForDeletion(_ deletion: Deletion) {
        guard !deletion.isCascade, let parent else { return }
        parent.childCount = max(0, parent.childCount - 1)
    }
}
