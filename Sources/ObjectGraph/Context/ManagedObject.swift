/// An object of the graph: one row of its entity's table, registered in exactly one context.
///
/// Subclass it to give an entity typed properties and a will-delete hook:
/// ```swift
/// final class Item: ManagedObject {
///     var title: String { get { self["title"] } set { self["title"] = newValue } }
/// }
/// ```
open class ManagedObject: CustomStringConvertible {
    /// The object's permanent identity, which never changes.
    public let objectID: ObjectID
    /// The entity the object belongs to.
    public let entity: EntityDescription
    /// The context the object lives in; nil once the object is no longer valid (its insert was rolled back,
    /// its deletion was saved, or the context is gone).
    public final internal(set) var context: Context? {
        get { contextReference?.takeUnretainedValue() }
        set { contextReference = newValue.map { Unmanaged.passUnretained($0) } }
    }
    // Not weak: a weak reference gives every object a side table (one more allocation each)
    // and every read is an atomic load. The context clears this when it unregisters the object and for
    // every registered object when it goes away (see `Context.deinit`), so it never dangles. Unmanaged
    // rather than `unowned(unsafe)`: a value read notes itself in the context (`noteRead`) through
    // `_withUnsafeGuaranteedRef`, with no retain and release around it, which `unowned(unsafe)` always
    // costs there (a tenth of the instructions of a key press on a long list).
    @exclusivity(unchecked) final var contextReference: Unmanaged<Context>?

    // The context above, the row and the flags below are read on every property access. Their dynamic exclusivity checks
    // cost more than the accesses themselves, and none of these is ever passed inout or held across a
    // call (each access is a plain load, store or element assignment), so the checks are turned off.
    // `relations` keeps them: it is changed through closures.

    /// One value per property slot; empty while the object is a fault.
    @exclusivity(unchecked) final var values: [Value] = []
    /// The values as last saved, taken at the first change of a unit of work; nil when unchanged.
    @exclusivity(unchecked) final var committed: [Value]?
    /// Inverse-side relationship states, by slot.
    final var relations = RelationStates()
    /// Slots of inverse-side relationships changed in this unit of work.
    @exclusivity(unchecked) final var relationMask: UInt64 = 0
    /// True until the whole row is loaded. A partial fault (see `FetchRequest.propertiesToFetch`) has
    /// `values` already, and `missing` says which stored slots of it are not loaded yet.
    @exclusivity(unchecked) final var isFault = true
    @exclusivity(unchecked) final var missing: UInt64 = 0
    /// Where a partial fault made from a prefetched fetch result reads its values (it has none of its
    /// own): the rows, and its row in them. Nil for every other object.
    @exclusivity(unchecked) final var prefetched: PrefetchedRows?
    @exclusivity(unchecked) final var prefetchedRow = 0
    @exclusivity(unchecked) final var isInUpdatedList = false
    /// True once a fault could not be fulfilled because its row is gone.
    @exclusivity(unchecked) public final internal(set) var isInaccessible = false

    /// Inserted in this unit of work and not yet saved.
    @exclusivity(unchecked) public final internal(set) var isInserted = false
    /// Deleted in this unit of work and not yet saved.
    @exclusivity(unchecked) public final internal(set) var isDeleted = false

    /// The context calls it to make every object (an insert, a fetch, a fault); a subclass that overrides it calls `super`'s.
    public required init(entity: EntityDescription, objectID: ObjectID) {
        self.entity = entity
        self.objectID = objectID
    }

    /// Called when the object is deleted, before its delete rules run; it may change other objects of the
    /// same unit of work. `deletion.isCascade` tells whether a cascade rule reached it.
    open func prepareForDeletion(_ deletion: Deletion) {}

    /// Called once, right after the object was inserted and given its defaults.
    open func awakeFromInsert() {}

    /// True when the object has unsaved changes.
    public var hasChanges: Bool {
        isInserted || isDeleted || relationMask != 0 || (committed.map { $0 != values } ?? false)
    }

    /// Names of the properties changed since the last save.
    public var changedKeys: [String] { changedMask.names(in: entity) }

    /// Changed slots: attributes and keys that differ from the saved values, plus changed relationships.
    var changedMask: PropertyMask {
        var bits = relationMask
        if isInserted {
            for s in entity.storedSlots { bits |= 1 << UInt64(s) }
        } else if let committed {
            for s in entity.storedSlots where committed[s] != values[s] { bits |= 1 << UInt64(s) }
        }
        return PropertyMask(rawValue: bits)
    }

    /// The stored columns a save writes for this object as an update: slots whose value differs from the
    /// saved one, counts the store maintains left out. Empty for an unchanged or inserted object.
    var updatedColumns: [Int] {
        guard let committed else { return [] }
        let e = entity
        return e.storedSlots.filter { committed[$0] != values[$0] && !e.isMaintained($0) }
    }

    /// Gives the object its whole row: it is no fault of any kind afterwards.
    final func take(row: [Value]) {
        values = row
        isFault = false
        missing = 0
        prefetched = nil
    }

    /// Drops the row and the relationship sets read from the store: the object reloads them when next
    /// touched.
    final func turnIntoFault() {
        values = []
        isFault = true
        missing = 0
        prefetched = nil
        relations = RelationStates()
    }

    public var description: String {
        "\(entity.name)\(objectID)" + (isFault ? " (fault)" : "")
    }
}
