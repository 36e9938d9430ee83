extension ManagedObject {
    // MARK: - Attributes

    /// The value of the attribute `key`; derived transients are computed on each read.
    ///
    /// ```swift
    /// let title = item["title"]            // Value
    /// let done: Bool = item["done"]        // typed
    /// ```
    public subscript(key: String) -> Value {
        get { readValue(slot: attributeSlot(key)) }
        set { setValue(newValue, slot: attributeSlot(key)) }
    }

    /// The value of the attribute `key` as a Swift type; a value of another type reads as the type's zero.
    public subscript<T: AttributeValue>(key: String) -> T {
        get { self[slot: attributeSlot(key)] }
        set { self[slot: attributeSlot(key)] = newValue }
    }

    /// The attribute at `slot` (see ``EntityDescription/slot(_:)``), without a name lookup.
    ///
    /// ```swift
    /// static let titleSlot = model.entity("Item")!.slot("title")!
    /// let title: String = item[slot: titleSlot]
    /// ```
    public subscript<T: AttributeValue>(slot slot: Int) -> T {
        get {
            precondition(entity.attributeMask & (1 << UInt64(slot)) != 0, "slot \(slot) of \(entity.name) is not an attribute")
            let v = readValue(slot: slot)
            return T(value: v) ?? T(value: .null) ?? T.zero(for: entity.properties[slot].attribute!.type)
        }
        set {
            precondition(entity.attributeMask & (1 << UInt64(slot)) != 0, "slot \(slot) of \(entity.name) is not an attribute")
            setValue(newValue.value, slot: slot)
        }
    }

    /// The string attribute at `slot` ("" when nil or not a string): the non-generic fast path.
    public func string(at slot: Int) -> String {
        if case .string(let s) = readValue(slot: slot) { return s }
        return ""
    }

    /// The string attribute at `slot`, nil when nil or not a string: the non-generic fast path for an
    /// optional string (the generic subscript looks its type's metadata up at run time on every read).
    public func optionalString(at slot: Int) -> String? {
        if case .string(let s) = readValue(slot: slot) { return s }
        return nil
    }

    /// The integer attribute at `slot` (0 when nil or not an integer).
    public func integer(at slot: Int) -> Int64 {
        if case .integer(let i) = readValue(slot: slot) { return i }
        return 0
    }

    /// The bool attribute at `slot` (false when nil or not a bool).
    public func bool(at slot: Int) -> Bool {
        if case .bool(let b) = readValue(slot: slot) { return b }
        return false
    }

    /// A value read by the program (not by the graph's own bookkeeping): what the unit of work read is
    /// what its plain save checks against commits made elsewhere (see `Context.noteRead`).
    @inline(__always)
    func readValue(slot: Int) -> Value {
        noteRead()
        return value(slot: slot)
    }

    /// Notes a read by the program in the object's context. Safe without a strong reference: the context
    /// is alive while it holds the object (it clears `contextReference` when it lets go of it or goes
    /// away), and nothing in `noteRead` can release it.
    @inline(__always)
    func noteRead() {
        contextReference?._withUnsafeGuaranteedRef { $0.noteRead(entity.index) }
    }

    func value(slot: Int) -> Value {
        load(slot)
        if entity.derivedMask & (1 << UInt64(slot)) != 0 {
            return entity.properties[slot].attribute!.derive!(self)
        }
        return storedValue(slot)
    }

    /// The value in `slot` once `load(slot)` made it readable: a prefetched partial fault reads it from
    /// its fetch's rows.
    @inline(__always)
    func storedValue(_ slot: Int) -> Value {
        if isFault, let rows = prefetched { return rows.value(row: prefetchedRow, slot: slot) }
        return values[slot]
    }

    func setValue(_ v: Value, slot: Int) {
        precondition(!entity.isMaintained(slot), "\(entity.name).\(entity.properties[slot].name) is maintained by the store and cannot be set")
        if isFault { fulfill() }
        guard values[slot] != v else { return }
        // The context (a weak load) is needed only for the first change of a unit of work: an inserted
        // object has no saved values to keep, a changed one has kept them and is listed already.
        if !isInserted && (committed == nil || !isInUpdatedList) && entity.storedMask & (1 << UInt64(slot)) != 0 {
            context?.willChange(self)
        }
        values[slot] = v
    }

    private func attributeSlot(_ key: String) -> Int {
        guard let slot = entity.slotByName[key], entity.attributeMask & (1 << UInt64(slot)) != 0 else {
            preconditionFailure("\(entity.name) has no attribute \(key)")
        }
        return slot
    }

    private func relationship(_ key: String) -> (slot: Int, RelationshipDescription) {
        guard let slot = entity.slotByName[key], let r = entity.relationshipOfSlot[slot] else {
            preconditionFailure("\(entity.name) has no relationship \(key)")
        }
        return (slot, r)
    }

    /// Makes `slot` readable: a fault is loaded, a partial fault only when it lacks that slot. Anything
    /// else that needs the values (a change, a save, a comparison) loads the whole row with `fulfill`.
    @inline(__always)
    func load(_ slot: Int) {
        if isFault && ((values.isEmpty && prefetched == nil) || missing & (1 << UInt64(slot)) != 0) { fulfill() }
    }

    func fulfill() {
        guard isFault, let context else {
            if isFault {
                // A partial fault keeps what it read; the rest reads as defaults.
                if let rows = prefetched { values = rows.row(prefetchedRow) }
                prefetched = nil
                if values.isEmpty { values = entity.defaults }
                isFault = false
                isInaccessible = true
            }
            return
        }
        context.fulfill(self)
    }

    // MARK: - Relationships

    /// The object at the end of the to-one relationship `key`.
    ///
    /// ```swift
    /// let parent = item.object("parent")
    /// ```
    public func object(_ key: String) -> ManagedObject? {
        noteRead()
        let (slot, r) = relationship(key)
        precondition(!r.isToMany, "\(entity.name).\(key) is to-many")
        return toOneID(slot: slot, r).flatMap { context?.object(for: ObjectID(entity: r.destination, rowID: $0)) }
    }

    /// Sets the to-one relationship `key`; the inverse is updated at once on both the old and new target.
    ///
    /// ```swift
    /// milk.setObject(groceries, for: "parent")   // groceries.objects("children") now contains milk
    /// ```
    public func setObject(_ target: ManagedObject?, for key: String) {
        setObject(target, slot: relationship(key).slot)
    }

    /// Sets the to-one relationship at `slot` (see ``EntityDescription/slot(_:)``), without a name lookup.
    public func setObject(_ target: ManagedObject?, slot: Int) {
        guard let r = entity.relationshipOfSlot[slot] else {
            preconditionFailure("slot \(slot) of \(entity.name) is not a relationship")
        }
        precondition(!r.isToMany, "\(entity.name).\(entity.properties[slot].name) is to-many: add through its inverse")
        let context = self.context
        if let target {
            precondition(
                target.entity.index == r.destination, "\(entity.name).\(entity.properties[slot].name) cannot point to a \(target.entity.name)")
            precondition(target.context === context, "objects of different contexts cannot be related")
        }
        guard let context else { return }
        setToOne(slot: slot, r, target?.objectID.rowID, in: context)
    }

    /// The IDs of the objects in the relationship `key` (either cardinality), in row ID order; a
    /// many-to-many's in the order they were added (an item's tags as written).
    public func objectIDs(_ key: String) -> [ObjectID] {
        noteRead()
        let (slot, r) = relationship(key)
        if !r.isToMany {
            return toOneID(slot: slot, r).map { [ObjectID(entity: r.destination, rowID: $0)] } ?? []
        }
        if let join = r.join {
            // Links are numbered as they are made: their order is the order of adding. A pair linked twice
            // (by two processes at once) counts once, where it was first added.
            var seen = Set<Int64>()
            return links(join).compactMap { $0.far(join) }.filter { seen.insert($0).inserted }.map { ObjectID(entity: r.destination, rowID: $0) }
        }
        return members(slot: slot).sorted().map { ObjectID(entity: r.destination, rowID: $0) }
    }

    /// The objects of the to-many relationship `key`, in the order of ``objectIDs(_:)`` (faults until touched).
    public func objects(_ key: String) -> [ManagedObject] {
        guard let context else { return [] }
        return objectIDs(key).map { context.object(for: $0) }
    }

    /// How many objects the relationship `key` holds.
    public func count(_ key: String) -> Int {
        noteRead()
        let (slot, r) = relationship(key)
        if !r.isToMany { return toOneID(slot: slot, r) == nil ? 0 : 1 }
        return members(slot: slot).count
    }

    /// Adds `object` to the to-many relationship `key` (sets the object's to-one inverse; for a many-to-many,
    /// links the two, once however often it is added).
    ///
    /// ```swift
    /// item.add(work, to: "tags")   // work.objects("items") now contains item
    /// ```
    public func add(_ object: ManagedObject, to key: String) {
        let (slot, r) = relationship(key)
        precondition(r.isToMany, "\(entity.name).\(key) is to-one")
        guard let context = object.context else { return }
        if let join = r.join {
            precondition(object.entity.index == r.destination, "\(entity.name).\(key) cannot hold a \(object.entity.name)")
            precondition(object.context === self.context, "objects of different contexts cannot be related")
            guard !members(slot: slot).contains(object.objectID.rowID) else { return }
            let link: ManagedObject
            do {
                link = try context.insert(context.model.entities[join.entity])
            } catch {
                // No ID could be reserved: the next save fails with the error rather than lose the link.
                context.noteReadFailure(error)
                return
            }
            let links = link.entity
            link.setToOne(slot: join.nearSlot, links.relationshipOfSlot[join.nearSlot]!, objectID.rowID, in: context)
            link.setToOne(slot: join.farSlot, links.relationshipOfSlot[join.farSlot]!, object.objectID.rowID, in: context)
            return
        }
        object.setToOne(slot: r.inverseSlot, object.entity.relationshipOfSlot[r.inverseSlot]!, objectID.rowID, in: context)
    }

    /// Removes `object` from the to-many relationship `key` (clears the object's to-one inverse; for a
    /// many-to-many, deletes their link).
    public func remove(_ object: ManagedObject, from key: String) {
        let (slot, r) = relationship(key)
        precondition(r.isToMany, "\(entity.name).\(key) is to-one")
        guard members(slot: slot).contains(object.objectID.rowID), let context = object.context else { return }
        if let join = r.join {
            for link in links(join) where link.far(join) == object.objectID.rowID { context.delete(link) }
            return
        }
        object.setToOne(slot: r.inverseSlot, object.entity.relationshipOfSlot[r.inverseSlot]!, nil, in: context)
    }

    /// The live links of a many-to-many, their rows read in one query the first time.
    func links(_ join: JoinPath) -> [ManagedObject] {
        guard let context else { return [] }
        if relations[join.ownSlot]?.stored == nil && !isInserted {
            relations[join.ownSlot, default: RelationState()].stored = context.loadRelation(of: self, slot: join.ownSlot, prefetch: true)
        }
        return members(slot: join.ownSlot).sorted().compactMap { id in
            let link = context.object(for: ObjectID(entity: join.entity, rowID: id))
            return link.isDeleted ? nil : link
        }
    }

    /// The row ID at the other end of a many-to-many link.
    func far(_ join: JoinPath) -> Int64? {
        toOneID(slot: join.farSlot, entity.relationshipOfSlot[join.farSlot]!)
    }

    // MARK: - Internals shared with the context

    func toOneID(slot: Int, _ r: RelationshipDescription) -> Int64? {
        if r.storesForeignKey {
            load(slot)
            if case .integer(let id) = storedValue(slot) { return id }
            return nil
        }
        return members(slot: slot).first
    }

    /// Current members of an inverse-side relationship, loading what the store holds on first use.
    func members(slot: Int) -> Set<Int64> {
        if let join = entity.relationshipOfSlot[slot]?.join { return Set(links(join).compactMap { $0.far(join) }) }
        if relations[slot]?.stored == nil {
            let stored = isInserted ? [] : (context?.loadRelation(of: self, slot: slot) ?? [])
            relations[slot, default: RelationState()].stored = stored
        }
        return relations[slot]!.members
    }

    /// `context` is the object's own, passed in so the caller's weak load is not repeated.
    func setToOne(slot: Int, _ r: RelationshipDescription, _ newID: Int64?, in context: Context) {
        let oldID = toOneID(slot: slot, r)
        guard oldID != newID else { return }
        assignToOne(slot: slot, r, newID)
        if let oldID {
            let old = context.object(for: ObjectID(entity: r.destination, rowID: oldID))
            old.unlink(slot: r.inverseSlot, old.entity.relationshipOfSlot[r.inverseSlot]!, objectID.rowID)
        }
        if let newID {
            let target = context.object(for: ObjectID(entity: r.destination, rowID: newID))
            if r.inverseIsToMany {
                target.relationChanged(slot: r.inverseSlot) { $0.add(objectID.rowID) }
            } else {
                let inverse = target.entity.relationshipOfSlot[r.inverseSlot]!
                // One-to-one: the target's previous partner loses its pointer.
                if let previous = target.toOneID(slot: r.inverseSlot, inverse), previous != objectID.rowID {
                    context.object(for: ObjectID(entity: entity.index, rowID: previous)).assignToOne(slot: slot, r, nil)
                }
                target.assignToOne(slot: r.inverseSlot, inverse, objectID.rowID)
            }
        }
    }

    /// Removes `id` from this object's side of a relationship, without touching the other side.
    func unlink(slot: Int, _ r: RelationshipDescription, _ id: Int64) {
        if r.isToMany {
            relationChanged(slot: slot) { $0.remove(id) }
        } else if toOneID(slot: slot, r) == id {
            assignToOne(slot: slot, r, nil)
        }
    }

    /// Sets this side of a to-one only.
    func assignToOne(slot: Int, _ r: RelationshipDescription, _ id: Int64?) {
        if r.storesForeignKey {
            setValue(id.map(Value.integer) ?? .null, slot: slot)
        } else {
            let current = members(slot: slot)
            relationChanged(slot: slot) { state in
                for m in current where m != id { state.remove(m) }
                if let id { state.add(id) }
            }
        }
    }

    func relationChanged(slot: Int, _ change: (inout RelationState) -> Void) {
        change(&relations[slot, default: RelationState()])
        relationMask |= 1 << UInt64(slot)
        if !isInUpdatedList && !isInserted { context?.markUpdated(self) }
    }
}

extension AttributeValue {
    static func zero(for type: AttributeType) -> Self {
        let zero: Value
        switch type {
        case .string: zero = .string("")
        case .integer64: zero = .integer(0)
        case .double: zero = .double(0)
        case .bool: zero = .bool(false)
        case .date: zero = .date(.init(timeIntervalSince1970: 0))
        case .binary: zero = .data(.init())
        case .uuid: zero = .uuid(.init(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        }
        guard let z = Self(value: zero) else { preconditionFailure("\(Self.self) cannot hold a \(type.rawValue)") }
        return z
    }
}
