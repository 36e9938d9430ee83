/// What one unit of work changed: inserted, updated (with changed properties) and deleted object IDs,
/// grouped per entity. Published after every successful save; the input of results controllers.
///
/// ```swift
/// context.observeChanges { changes in
///     let items = changes[model.entity("Item")!.index]   // the changes to one entity
///     print(changes.insertedCount, items.deleted)
/// }
/// ```
public struct ChangeSet: Sendable, CustomStringConvertible {
    /// The changes to one entity's objects.
    ///
    /// ```swift
    /// for (id, mask) in changes[itemEntity.index].updated { print(id, mask.names(in: itemEntity)) }
    /// ```
    public struct EntityChanges: Sendable, Equatable {
        /// The objects inserted.
        public var inserted: [ObjectID] = []
        /// The objects updated, each with the properties that changed.
        public var updated = UpdatedObjects()
        /// The objects deleted.
        public var deleted: [ObjectID] = []
        /// True when no object of the entity changed.
        public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
    }

    /// Changes keyed by entity index.
    public private(set) var entities: [Int: EntityChanges] = [:]

    /// True for the one change set ``Context/reset()`` sends its observers: every object the context held is
    /// forgotten, none is listed here; read again what you show (Core Data's `NSInvalidatedAllObjectsKey`).
    ///
    /// ```swift
    /// context.observeChanges { changes in if changes.invalidatesAll { reloadEverything() } }
    /// ```
    public internal(set) var invalidatesAll = false

    /// An empty change set.
    public init() {}

    /// True when no object changed (and the set is not a reset's, ``invalidatesAll``).
    public var isEmpty: Bool { !invalidatesAll && entities.values.allSatisfy(\.isEmpty) }

    /// The changes to the entity with index `entity` (empty when none).
    public subscript(entity: Int) -> EntityChanges { entities[entity] ?? EntityChanges() }

    /// How many objects were inserted, over all entities.
    public var insertedCount: Int { entities.values.reduce(0) { $0 + $1.inserted.count } }
    /// How many objects were updated, over all entities.
    public var updatedCount: Int { entities.values.reduce(0) { $0 + $1.updated.count } }
    /// How many objects were deleted, over all entities.
    public var deletedCount: Int { entities.values.reduce(0) { $0 + $1.deleted.count } }

    mutating func insert(_ id: ObjectID) { entities[id.entity, default: EntityChanges()].inserted.append(id) }

    /// Inserts many IDs with one dictionary access per run of the same entity, not one per ID.
    mutating func insert<S: Sequence<ObjectID>>(contentsOf ids: S) {
        var run: [ObjectID] = []
        for id in ids {
            if let first = run.first, first.entity != id.entity {
                entities[first.entity, default: EntityChanges()].inserted += run
                run.removeAll(keepingCapacity: true)
            }
            run.append(id)
        }
        if let first = run.first { entities[first.entity, default: EntityChanges()].inserted += run }
    }
    mutating func delete(_ id: ObjectID) { entities[id.entity, default: EntityChanges()].deleted.append(id) }

    /// Deletes many IDs of one entity with one dictionary access.
    mutating func delete<S: Sequence<ObjectID>>(contentsOf ids: S) {
        let all = Array(ids)
        guard let first = all.first else { return }
        precondition(all.allSatisfy { $0.entity == first.entity }, "delete(contentsOf:) takes IDs of one entity")
        entities[first.entity, default: EntityChanges()].deleted.append(contentsOf: all)
    }
    mutating func update(_ id: ObjectID, _ mask: PropertyMask) {
        entities[id.entity, default: EntityChanges()].updated.formUnion(id, mask)
    }

    /// The same changes without updates of objects it inserts (an insert says everything about them).
    func droppingUpdatesOfInserted() -> ChangeSet {
        var out = self
        for (e, c) in entities where !c.updated.isEmpty && !c.inserted.isEmpty {
            // Most often no update is of an inserted object (the owners whose counts grew were stored before
            // the rows they gained): told by the inserts' range of row IDs, read without hashing them.
            var low = Int64.max, high = Int64.min
            for id in c.inserted {
                low = min(low, id.rowID)
                high = max(high, id.rowID)
            }
            guard c.updated.contains(where: { (low...high).contains($0.key.rowID) }) else { continue }
            // Updates are few (counts), inserts may be a million: walk the inserts, hold a set of the updates.
            var dropped = Set<ObjectID>()
            for id in c.inserted where c.updated[id] != nil { dropped.insert(id) }
            if !dropped.isEmpty { out.entities[e]!.updated = c.updated.removing(dropped) }
        }
        return out
    }

    /// Updates of many objects of one entity with the same mask (a batch update), kept as one run.
    init(entity: Int, updated ids: [Int64], mask: PropertyMask) {
        entities[entity] = EntityChanges(updated: UpdatedObjects(entity: entity, rowIDs: ids, mask: mask))
    }

    /// The changes to the entities with the given indexes only.
    func restricted(to wanted: Set<Int>) -> ChangeSet {
        var out = self
        out.entities = entities.filter { wanted.contains($0.key) }
        return out
    }

    /// Adds another unit of work's changes (for delivering several commits as one).
    mutating func formUnion(_ other: ChangeSet) {
        // In place: a copy taken out and put back would copy a growing list of a million inserts each time.
        for (e, c) in other.entities {
            entities[e, default: EntityChanges()].inserted += c.inserted
            entities[e, default: EntityChanges()].deleted += c.deleted
            entities[e, default: EntityChanges()].updated.formUnion(c.updated)
        }
    }

    public var description: String {
        "ChangeSet(inserted: \(insertedCount), updated: \(updatedCount), deleted: \(deletedCount))"
    }
}
