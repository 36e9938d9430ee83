import Foundation
import ObjectGraph

/// One entry of the outline: a title, an optional note, a done flag, its place among its siblings and
/// its sub-items.
public final class Item: ManagedObject {
    /// The entity's name in the model (`OutlineModel`), for requests and inserts: `FetchRequest(Item.entityName)`.
    public static let entityName = "Item"

    /// Slots resolved once, so the accessors the UI calls per row skip the name lookup.
    enum Slot {
        static let entity = OutlineModel.model.entity(Item.entityName)!
        static let title = entity.slot("title")!
        static let note = entity.slot("note")!
        static let done = entity.slot("done")!
        static let order = entity.slot("order")!
        static let childCount = entity.slot("childCount")!
        static let rootMarker = entity.slot("rootMarker")!
        static let created = entity.slot("created")!
        static let modified = entity.slot("modified")!
        static let expanded = entity.slot("expanded")!
        static let hidesDone = entity.slot("hidesDone")!
        static let state = entity.slot("state")!
        static let priority = entity.slot("priority")!
        static let scheduled = entity.slot("scheduled")!
        static let deadline = entity.slot("deadline")!
        static let closed = entity.slot("closed")!
        static let properties = entity.slot("properties")!
        static let orgHead = entity.slot("orgHead")!
        static let tagList = entity.slot("tagList")!
        static let agendaDay = entity.slot("agendaDay")!
        /// The slots an item's `OutlineNode.Extras` go to, in its order.
        static let extras = [state, priority, scheduled, deadline, closed, properties, orgHead]
    }

    /// Where items are in a `ChangeSet` (`changes[Item.entityIndex]`).
    public static var entityIndex: Int { Slot.entity.index }

    /// The bit of `expanded` in a change set's masks: whether a change folded an item open or closed.
    public static var expandedMask: PropertyMask { PropertyMask(slot: Slot.expanded) }

    /// The bit of `childCount`: a change set carries it for an item whose sub-items came or went.
    public static var childCountMask: PropertyMask { PropertyMask(slot: Slot.childCount) }

    /// The bit of `done`.
    public static var doneMask: PropertyMask { PropertyMask(slot: Slot.done) }

    /// Now, to 1/1024 of a second: such a time is stored as seconds since 1970 and read back exactly,
    /// so the value an undo step remembers equals the one the store holds (a full-precision `Date` can come
    /// back one bit off, which would read as a change made elsewhere).
    public static func timestamp(_ date: Date = Date()) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1024).rounded() / 1024)
    }

    /// A new item was created now, and changed now.
    public override func awakeFromInsert() {
        // Only on the outline's own model: an older model declared with `Item` (a migration test) has no
        // such attributes.
        guard entity === Slot.entity else { return }
        let now = Item.timestamp()
        self[slot: Slot.created] = now
        self[slot: Slot.modified] = now
    }

    /// When the item was made (nil for items from before version 3 of the model).
    public var created: Date? { self[slot: Slot.created] }

    /// When its title, note or done mark last changed (nil for items not changed since before version 3).
    public var modified: Date? { self[slot: Slot.modified] }

    /// Records a change of what the item says.
    func touch() {
        // An item inserted in this unit of work was stamped when it was made: setting its title is part of
        // making it, and stamping again would cost an import a clock read and a write per item.
        guard entity === Slot.entity, !isInserted else { return }
        self[slot: Slot.modified] = Item.timestamp()
    }

    public var title: String {
        get { string(at: Slot.title) }
        set {
            guard newValue != title else { return }
            self[slot: Slot.title] = newValue
            touch()
        }
    }

    public var note: String? {
        get { optionalString(at: Slot.note) }
        set {
            guard newValue != note else { return }
            self[slot: Slot.note] = newValue
            touch()
        }
    }

    public var isDone: Bool {
        get { bool(at: Slot.done) }
        set {
            guard newValue != isDone else { return }
            self[slot: Slot.done] = newValue
            touch()
        }
    }

    /// A task's keyword (`TODO`, `DONE`, or one of the outline's own workflow); nil for a plain item.
    public var state: String? {
        get { optionalString(at: Slot.state) }
        set {
            guard newValue != state else { return }
            self[slot: Slot.state] = newValue
            touch()
        }
    }

    /// The priority (`A`, `B`, `C`, …), nil for none.
    public var priority: String? {
        get { optionalString(at: Slot.priority) }
        set {
            guard newValue != priority else { return }
            self[slot: Slot.priority] = newValue
            touch()
        }
    }

    /// When the task is planned, as the outline keeps timestamps (`2026-05-01 09:00 +1w`; see `OrgTimestamp`).
    public var scheduled: String? {
        get { optionalString(at: Slot.scheduled) }
        set {
            guard newValue != scheduled else { return }
            self[slot: Slot.scheduled] = newValue
            keepAgendaDay()
            touch()
        }
    }

    /// When the task is due, kept as `scheduled` is.
    public var deadline: String? {
        get { optionalString(at: Slot.deadline) }
        set {
            guard newValue != deadline else { return }
            self[slot: Slot.deadline] = newValue
            keepAgendaDay()
            touch()
        }
    }

    /// What an interchange file says beyond title, note and done (state, priority, dates, properties, and
    /// the tags, read through the links). Setting it sets the stored fields; tags are set with
    /// `Outline.setTags`, which finds or makes the tag objects.
    public var extras: OutlineNode.Extras? {
        get {
            let values = Slot.extras.map { self[slot: $0] as String? }
            return OutlineNode.Extras(values: values, tagList: entity === Slot.entity ? self[slot: Slot.tagList] : nil)
        }
        set {
            let values = newValue?.values ?? Array(repeating: nil, count: Slot.extras.count)
            for (slot, value) in zip(Slot.extras, values) where (self[slot: slot] as String?) != value { self[slot: slot] = value }
            keepAgendaDay()
        }
    }

    /// The earlier of the days it is planned and due (`2026-05-01`), nil when neither: the agenda's order.
    public var agendaDay: String? { entity === Slot.entity ? self[slot: Slot.agendaDay] : nil }

    /// The agenda's day of timestamps kept as `2026-05-01 09:00 +1w`.
    public static func agendaDay(scheduled: String?, deadline: String?) -> String? {
        let days = [scheduled, deadline].compactMap { $0.map { String($0.prefix(10)) } }
        return days.min()
    }

    /// Sets `agendaDay` from the dates, when it differs.
    func keepAgendaDay() {
        guard entity === Slot.entity else { return }
        let day = Item.agendaDay(scheduled: scheduled, deadline: deadline)
        if (self[slot: Slot.agendaDay] as String?) != day { self[slot: Slot.agendaDay] = day }
    }

    /// The names of its tags, in the order given.
    public var tagNames: [String] {
        guard entity === Slot.entity else { return [] }
        return Item.tags(ofList: optionalString(at: Slot.tagList))
    }

    /// Its tags as stored (`:work:home:`); set only with the links (`Outline.setTags`).
    var tagList: String? {
        get { self[slot: Slot.tagList] }
        set { self[slot: Slot.tagList] = newValue }
    }

    /// The tags of a stored list (`:work:home:`), in order.
    static func tags(ofList list: String?) -> [String] {
        guard let list else { return [] }
        return list.split(separator: ":").map(String.init)
    }

    /// The stored list of `tags` (nil for none).
    static func list(ofTags tags: [String]) -> String? {
        tags.isEmpty ? nil : ":" + tags.joined(separator: ":") + ":"
    }

    /// Folded open: its sub-items are shown indented beneath it in the level. View state, stored (so it
    /// persists and every process sees it) as 1 or NULL, so only open items are in the index of them.
    public var isExpanded: Bool {
        get { bool(at: Slot.expanded) }
        set {
            guard newValue != isExpanded else { return }
            self[slot: Slot.expanded] = newValue ? true : nil
        }
    }

    /// On the top item: whether done items are hidden in every level (nil: never set; the configuration
    /// decides). View state, stored with the outline so every process and machine shares it.
    public var hidesDone: Bool? {
        get { self[slot: Slot.hidesDone] }
        set { self[slot: Slot.hidesDone] = newValue }
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
