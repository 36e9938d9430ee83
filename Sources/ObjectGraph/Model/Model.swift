import Foundation

/// A data model: entities with attributes and relationships, validated when built.
///
/// ```swift
/// let model = try Model(version: 1) {
///     Entity("Person") {
///         Attribute("username", .string, unique: true)
///         Relationship.toMany("dvds", "DVD", inverse: "owner", deleteRule: .cascade)
///     }
///     Entity("DVD") {
///         Attribute("title", .string)
///         Relationship.toOne("owner", "Person", inverse: "dvds")
///     }
/// }
/// ```
public final class Model: Sendable {
    /// Increase it when the model changes; a store written by a higher version is refused.
    public let version: Int
    /// The entities as declared, then the join entities of its many-to-manys; an entity's position is its ``EntityDescription/index``.
    public let entities: [EntityDescription]
    /// A deterministic digest of everything declared (16 hex digits).
    public let versionHash: String
    /// The names of the entities the model made for its many-to-many relationships (see ``Relationship``).
    public let joinEntities: Set<String>
    let snapshot: ModelSnapshot
    private let entityIndex: [String: Int]

    /// Builds the model that `declare` lists and checks it: a mistake in it throws a ``ModelError``.
    public init(version: Int = 1, @ModelBuilder _ declare: () -> [Entity]) throws(ModelError) {
        var declared = declare()
        try Model.validate(declared)
        let joins = try Model.addJoinEntities(to: &declared)
        self.version = version
        var index: [String: Int] = [:]
        for (i, e) in declared.enumerated() { index[e.name] = i }
        entityIndex = index
        // Each counted to-many is kept from the other side's foreign key: that entity learns which of its
        // keys feed which count, so a save finds them without searching the model.
        var feeds = Array(repeating: [CountFeed](), count: declared.count)
        for (o, owner) in declared.enumerated() {
            for (slot, a) in owner.attributes.enumerated() {
                guard let name = a.countedRelationship, let r = owner.relationships.first(where: { $0.name == name }) else { continue }
                let d = index[r.destination]!
                let member = declared[d]
                let keySlot = member.attributes.count + member.relationships.firstIndex { $0.name == r.inverse }!
                feeds[d].append(CountFeed(keySlot: keySlot, owner: o, ownerSlot: slot))
            }
        }
        var built: [EntityDescription] = []
        for (i, e) in declared.enumerated() {
            built.append(
                EntityDescription(entity: e, index: i, countFeeds: feeds[i]) { r in
                    let destIndex = index[r.destination]!
                    let dest = declared[destIndex]
                    let inverse = dest.relationships.first { $0.name == r.inverse }!
                    let inverseSlot = dest.attributes.count + dest.relationships.firstIndex { $0.name == r.inverse }!
                    let storesKey: Bool
                    var join: JoinPath?
                    if r.isToMany && inverse.isToMany {
                        storesKey = false
                        let first = (e.name, r.name) < (dest.name, inverse.name)
                        let joinEntity = index[first ? Model.joinName(e.name, r.name) : Model.joinName(dest.name, inverse.name)]!
                        let ownSlot = e.attributes.count + e.relationships.firstIndex { $0.name == Model.joinSide(r.name) }!
                        // The join entity has no attributes: its `source` (the first side) is slot 0, `target` slot 1.
                        join = JoinPath(entity: joinEntity, ownSlot: ownSlot, nearSlot: first ? 0 : 1, farSlot: first ? 1 : 0)
                    } else if r.isToMany {
                        storesKey = false
                    } else if inverse.isToMany {
                        storesKey = true
                    } else {
                        // One-to-one: the key lives on the side that sorts first, so exactly one side has it.
                        storesKey = (e.name, r.name) < (dest.name, inverse.name)
                    }
                    return RelationshipDescription(
                        relationship: r, destination: destIndex, inverseSlot: inverseSlot, storesForeignKey: storesKey,
                        inverseIsToMany: inverse.isToMany, join: join)
                })
        }
        entities = built
        joinEntities = joins
        snapshot = ModelSnapshot(version: version, entities: built)
        versionHash = snapshot.hash
    }

    /// The entity named `name`.
    public func entity(_ name: String) -> EntityDescription? {
        entityIndex[name].map { entities[$0] }
    }

    private static func validate(_ entities: [Entity]) throws(ModelError) {
        var names = Set<String>()
        for e in entities {
            guard names.insert(e.name).inserted else { throw .duplicateEntity(e.name) }
            try checkName(e.name)
        }
        let byName = Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0) })
        for e in entities {
            var props = Set<String>()
            let count = e.attributes.count + e.relationships.count
            guard count <= 64 else { throw .tooManyProperties(entity: e.name, count: count) }
            for p in e.attributes.map(\.name) + e.relationships.map(\.name) {
                try checkName(p)
                guard props.insert(p).inserted else { throw .duplicateProperty(entity: e.name, property: p) }
            }
            for a in e.attributes {
                try validate(a, in: e.name)
                if let counted = a.countedRelationship {
                    guard let r = e.relationships.first(where: { $0.name == counted }), r.isToMany else {
                        throw .badRule(entity: e.name, attribute: a.name, reason: "\(counted) is not a to-many relationship of \(e.name)")
                    }
                }
            }
            for r in e.relationships {
                guard let dest = byName[r.destination] else {
                    throw .unknownDestination(entity: e.name, relationship: r.name, destination: r.destination)
                }
                guard let inv = dest.relationships.first(where: { $0.name == r.inverse }) else {
                    throw .badInverse(
                        entity: e.name, relationship: r.name,
                        reason: "its inverse \(r.destination).\(r.inverse) is not declared")
                }
                guard inv.destination == e.name, inv.inverse == r.name else {
                    throw .badInverse(
                        entity: e.name, relationship: r.name,
                        reason: "\(r.destination).\(r.inverse) does not name it back as its inverse")
                }
                if r.isToMany && inv.isToMany && r.destination == e.name && r.inverse == r.name {
                    throw .badInverse(entity: e.name, relationship: r.name, reason: "a many-to-many relationship cannot be its own inverse")
                }
            }
            let stored = Set(e.attributes.filter { !$0.isTransient }.map(\.name) + e.relationships.filter { !$0.isToMany }.map(\.name))
            for i in e.indexes {
                for p in i.properties where !stored.contains(p) {
                    throw .unknownIndexProperty(entity: e.name, property: p)
                }
            }
            for p in e.fullTextIndex?.attributes ?? [] {
                guard let a = e.attributes.first(where: { $0.name == p }), !a.isTransient, a.type == .string else {
                    throw .unknownIndexProperty(entity: e.name, property: p)
                }
            }
        }
    }

    /// The name of the join entity of the many-to-many whose first side (by entity, then relationship name)
    /// is `entity.relationship`.
    static func joinName(_ entity: String, _ relationship: String) -> String { entity + "_" + relationship }

    /// The hidden to-many from a many-to-many's side to its join rows: a name no declaration can take.
    static func joinSide(_ relationship: String) -> String { "og_" + relationship }

    /// Gives each many-to-many a join entity (`source` to its first side, `target` to the other, indexed
    /// together both ways) and each side a hidden to-many to it, which cascades: deleting an object deletes its links,
    /// which is the many-to-many's nullify. A deny rule keeps the links until the save refuses. Returns the
    /// names of the join entities.
    private static func addJoinEntities(to entities: inout [Entity]) throws(ModelError) -> Set<String> {
        var names = Set(entities.map(\.name))
        var joins: [Entity] = []
        for e in entities {
            for r in e.relationships where r.isToMany {
                guard let d = entities.firstIndex(where: { $0.name == r.destination }),
                    let inverse = entities[d].relationships.first(where: { $0.name == r.inverse }), inverse.isToMany,
                    (e.name, r.name) < (entities[d].name, inverse.name)
                else { continue }
                let name = joinName(e.name, r.name)
                guard names.insert(name).inserted else { throw .duplicateEntity(name) }
                joins.append(
                    Entity(name) {
                        Relationship.toOne("source", e.name, inverse: joinSide(r.name), optional: false)
                        Relationship.toOne("target", r.destination, inverse: joinSide(inverse.name), optional: false)
                        // Not unique: two contexts or processes that link the same pair at once both save, and
                        // the pair counts once (members are a set); removing it removes every link of the pair.
                        CompoundIndex("source", "target")
                        // The other side's links (a tag's items; its delete) without reading every link.
                        CompoundIndex("target", "source")
                    })
            }
        }
        for join in joins {
            for (side, inverse) in [("source", join.relationships[0]), ("target", join.relationships[1])] {
                let e = entities.firstIndex { $0.name == inverse.destination }!
                let declared = entities[e].relationships.first { joinSide($0.name) == inverse.inverse }!
                let rule: DeleteRule = declared.deleteRule == .deny ? .noAction : .cascade
                entities[e].relationships.append(.toMany(inverse.inverse, join.name, inverse: side, deleteRule: rule))
                let count = entities[e].attributes.count + entities[e].relationships.count
                guard count <= 64 else { throw .tooManyProperties(entity: entities[e].name, count: count) }
            }
        }
        entities += joins
        return Set(joins.map(\.name))
    }

    private static func validate(_ a: Attribute, in entity: String) throws(ModelError) {
        if let t = a.defaultValue.type, t != a.type, !(t == .integer64 && a.type == .double) {
            throw .badDefault(entity: entity, attribute: a.name)
        }
        if let lo = a.minimum, let hi = a.maximum, lo > hi {
            throw .badRule(entity: entity, attribute: a.name, reason: "minimum \(lo) is above maximum \(hi)")
        }
        if let lo = a.minLength, let hi = a.maxLength, lo > hi {
            throw .badRule(entity: entity, attribute: a.name, reason: "minimum length \(lo) is above maximum length \(hi)")
        }
        if let p = a.pattern {
            guard a.type == .string else {
                throw .badRule(entity: entity, attribute: a.name, reason: "a pattern needs a string attribute")
            }
            do { _ = try NSRegularExpression(pattern: p) } catch {
                throw .badRule(entity: entity, attribute: a.name, reason: "invalid regular expression \(p)")
            }
        }
        if a.isTransient && (a.isIndexed || a.isUnique) {
            throw .badRule(entity: entity, attribute: a.name, reason: "a transient attribute cannot be indexed")
        }
    }

    private static func checkName(_ name: String) throws(ModelError) {
        let lower = name.lowercased()
        if name.isEmpty || lower == "id" || lower.hasPrefix("og_") || lower.hasPrefix("sqlite_")
            || name.utf8.contains(0x22) || name.utf8.contains(0)
        {
            throw .reservedName(name)
        }
    }
}
