/// An entity as the runtime uses it: properties resolved to slots, relationships to their destinations.
///
/// ```swift
/// let item = model.entity("Item")!
/// let titleSlot = item.slot("title")!   // then object[slot: titleSlot] reads without a name lookup
/// ```
public final class EntityDescription: Sendable, CustomStringConvertible {
    /// The entity's name.
    public let name: String
    /// Position in the model's entity list; part of every ``ObjectID``.
    public let index: Int
    /// The class of its objects: ``ManagedObject``, or the subclass the entity declared.
    public let objectType: ManagedObject.Type
    /// Attributes then relationships, in declaration order; a property's position is its slot.
    public let properties: [PropertyDescription]
    /// Its compound indexes, as declared.
    public let indexes: [CompoundIndex]
    /// The slots of the attributes in the entity's ``FullTextIndex``, in its order (empty without one).
    public let fullTextSlots: [Int]
    let slotByName: [String: Int]
    /// Slots stored as columns, in column order after `id`.
    let storedSlots: [Int]
    /// Transient slots computed by a `derive` closure.
    let derivedSlots: [Int]
    /// Slots of to-many relationships and of to-one relationships whose key lives on the other side.
    let inverseSideSlots: [Int]
    /// For each slot, its relationship (nil for attributes): reading one from `properties` copies the
    /// whole property description, which the relationship setters would pay on every change.
    let relationshipOfSlot: [RelationshipDescription?]
    /// The SQLite type read for each stored slot, parallel to `storedSlots`.
    let storedTypes: [AttributeType]
    /// Every stored column: what a fault loads.
    let wholeRow: RowLayout
    /// For each slot, the type to read its column as.
    let typeOfSlot: [AttributeType]
    /// Bit per slot with a `derive` closure.
    let derivedMask: UInt64
    /// Bit per slot stored as a column.
    let storedMask: UInt64
    /// Bit per attribute slot.
    let attributeMask: UInt64
    /// What save checks, resolved once: stored attributes and required to-ones.
    let checks: [AttributeCheck]
    let requiredToOneSlots: [Int]
    /// Slots holding the default of each stored or transient attribute (`.null` elsewhere).
    public let defaults: [Value]
    /// Bit per stored count the store maintains (see ``Attribute/count(_:of:)``): never written from memory.
    let maintainedMask: UInt64
    let viewStateMask: UInt64
    /// The foreign keys of this entity that maintained counts (of this or other entities) follow.
    let countFeeds: [CountFeed]

    init(entity: Entity, index: Int, countFeeds: [CountFeed], resolve: (Relationship) -> RelationshipDescription) {
        name = entity.name
        self.countFeeds = countFeeds
        self.index = index
        objectType = entity.objectType
        indexes = entity.indexes
        var props: [PropertyDescription] = []
        for a in entity.attributes {
            props.append(PropertyDescription(name: a.name, slot: props.count, kind: .attribute(a)))
        }
        for r in entity.relationships {
            props.append(PropertyDescription(name: r.name, slot: props.count, kind: .relationship(resolve(r))))
        }
        properties = props
        slotByName = Dictionary(uniqueKeysWithValues: props.map { ($0.name, $0.slot) })
        fullTextSlots = entity.fullTextIndex?.attributes.compactMap { [slotByName] in slotByName[$0] } ?? []
        storedSlots = props.filter(\.isStored).map(\.slot)
        derivedSlots = props.filter { $0.attribute?.derive != nil }.map(\.slot)
        inverseSideSlots = props.filter { $0.relationship.map { !$0.storesForeignKey } ?? false }.map(\.slot)
        relationshipOfSlot = props.map(\.relationship)
        wholeRow = RowLayout(props, storedSlots: storedSlots, slots: Set(storedSlots))
        storedTypes = storedSlots.map { props[$0].attribute?.type ?? .integer64 }
        typeOfSlot = props.map { $0.attribute?.type ?? .integer64 }
        derivedMask = derivedSlots.reduce(0) { $0 | 1 << UInt64($1) }
        storedMask = storedSlots.reduce(0) { $0 | 1 << UInt64($1) }
        checks = props.compactMap { p in
            p.attribute.flatMap { a in a.isTransient || a.isMaintained ? nil : AttributeCheck(slot: p.slot, attribute: a) }
        }
        requiredToOneSlots = props.filter { p in
            p.relationship.map { !$0.isToMany && !$0.relationship.isOptional } ?? false
        }.map(\.slot)
        attributeMask = props.filter { $0.attribute != nil }.reduce(0) { $0 | 1 << UInt64($1.slot) }
        defaults = props.map { $0.attribute?.defaultValue ?? .null }
        maintainedMask = props.filter { $0.attribute?.isMaintained ?? false }.reduce(0) { $0 | 1 << UInt64($1.slot) }
        viewStateMask = props.filter { $0.attribute?.isViewState ?? false }.reduce(0) { $0 | 1 << UInt64($1.slot) }
    }

    /// True for a view-state attribute (see `Attribute.viewState`): undo neither records nor checks it.
    public func isViewState(_ slot: Int) -> Bool { viewStateMask & (1 << UInt64(slot)) != 0 }

    /// True when the store maintains `slot` (a count): it is read-only to objects.
    public func isMaintained(_ slot: Int) -> Bool { maintainedMask & (1 << UInt64(slot)) != 0 }

    /// The stored attribute or to-one relationship named `key`, or an error naming it.
    func storedProperty(_ key: String) throws(StoreError) -> PropertyDescription {
        guard let p = property(key), p.isStored else {
            throw StoreError(.unknownProperty, "\(name).\(key) is not a stored attribute or to-one relationship", entity: name, property: key)
        }
        return p
    }

    /// The slot of the property named `name`, for ``ManagedObject/subscript(slot:)`` in hot code.
    public func slot(_ name: String) -> Int? { slotByName[name] }

    /// The property named `name`, if any.
    public func property(_ name: String) -> PropertyDescription? {
        slotByName[name].map { properties[$0] }
    }

    public var description: String { name }
}

/// An attribute or relationship of an entity, with its slot.
///
/// ```swift
/// for p in entity.properties where p.relationship?.isToMany == true { print(p.name) }
/// ```
public struct PropertyDescription: Sendable {
    /// An attribute or a relationship, with its declaration.
    ///
    /// ```swift
    /// if case .attribute(let a) = property.kind, a.isTransient { … }
    /// ```
    public enum Kind: Sendable {
        /// An attribute, as declared.
        case attribute(Attribute)
        /// A relationship, resolved against the model.
        case relationship(RelationshipDescription)
    }

    /// The property's name.
    public let name: String
    /// Its position in the entity's properties, and in each object's values.
    public let slot: Int
    /// Whether it is an attribute or a relationship.
    public let kind: Kind

    /// The attribute, when the property is one.
    public var attribute: Attribute? {
        if case .attribute(let a) = kind { return a }
        return nil
    }

    /// The relationship, when the property is one.
    public var relationship: RelationshipDescription? {
        if case .relationship(let r) = kind { return r }
        return nil
    }

    /// Has a column in the entity's table.
    var isStored: Bool {
        switch kind {
        case .attribute(let a): return !a.isTransient
        case .relationship(let r): return r.storesForeignKey
        }
    }
}

/// A relationship resolved against the model.
///
/// ```swift
/// let children = model.entity("Item")!.property("children")!.relationship!
/// children.isToMany && children.deleteRule == .cascade   // true
/// ```
public struct RelationshipDescription: Sendable {
    /// The relationship as declared.
    public var relationship: Relationship { declaration.relationship }
    /// Index of the destination entity.
    public let destination: Int
    /// Slot of the inverse relationship in the destination entity.
    public let inverseSlot: Int
    /// True for a to-one whose foreign key column lives in this entity's table.
    public let storesForeignKey: Bool
    /// True when the inverse is to-many.
    public let inverseIsToMany: Bool
    /// True for a to-many relationship.
    public let isToMany: Bool
    /// What deleting an object does to the objects at the other end.
    public let deleteRule: DeleteRule
    /// For a many-to-many: where its links are (nil otherwise).
    let join: JoinPath?
    /// True when both this relationship and its inverse are to-many.
    public var isManyToMany: Bool { join != nil }
    // A description is copied on every relationship change, and a declaration holds three strings: one
    // reference is cheaper to copy than three.
    private let declaration: Declaration

    private final class Declaration: Sendable {
        let relationship: Relationship
        init(_ relationship: Relationship) { self.relationship = relationship }
    }

    init(relationship: Relationship, destination: Int, inverseSlot: Int, storesForeignKey: Bool, inverseIsToMany: Bool, join: JoinPath? = nil) {
        self.join = join
        declaration = Declaration(relationship)
        self.destination = destination
        self.inverseSlot = inverseSlot
        self.storesForeignKey = storesForeignKey
        self.inverseIsToMany = inverseIsToMany
        isToMany = relationship.isToMany
        deleteRule = relationship.deleteRule
    }
}

/// Where a many-to-many's links are: the join entity, the hidden to-many of this side's object to its
/// links, and each link's to-one to this side (`nearSlot`) and to the other (`farSlot`).
struct JoinPath: Sendable {
    let entity: Int
    let ownSlot: Int
    let nearSlot: Int
    let farSlot: Int
}

/// One stored attribute's rules in a form that is cheap to check for every saved object.
struct AttributeCheck: Sendable {
    let slot: Int
    let type: AttributeType
    let isOptional: Bool
    let minimum: Double?
    let maximum: Double?
    let minLength: Int?
    let maxLength: Int?
    let pattern: String?
    /// True when only nullability and type need checking.
    let isSimple: Bool

    init(slot: Int, attribute a: Attribute) {
        self.slot = slot
        type = a.type
        isOptional = a.isOptional
        minimum = a.minimum
        maximum = a.maximum
        minLength = a.minLength
        maxLength = a.maxLength
        pattern = a.pattern
        isSimple = a.minimum == nil && a.maximum == nil && a.minLength == nil && a.maxLength == nil && a.pattern == nil
    }
}

/// One foreign key of an entity that a count in another (or the same) entity follows: a row whose key
/// holds `owner` row R adds one to R's count in `ownerSlot`.
struct CountFeed: Sendable {
    /// The slot of the to-one relationship (a stored foreign key) in the counted entity.
    let keySlot: Int
    /// The entity index of the owner and the slot of its count.
    let owner: Int
    let ownerSlot: Int
}
