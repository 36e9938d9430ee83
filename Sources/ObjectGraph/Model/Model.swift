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
    public let entities: [EntityDescription]
    /// A deterministic digest of everything declared (16 hex digits).
    public let versionHash: String
    let snapshot: ModelSnapshot
    private let entityIndex: [String: Int]

    public init(version: Int = 1, @ModelBuilder _ declare: () -> [Entity]) throws(ModelError) {
        let declared = declare()
        try Model.validate(declared)
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
                    if r.isToMany {
                        storesKey = false
                    } else if inverse.isToMany {
                        storesKey = true
                    } else {
                        // One-to-one: the key lives on the side that sorts first, so exactly one side has it.
                        storesKey = (e.name, r.name) < (dest.name, inverse.name)
                    }
                    return RelationshipDescription(
                        relationship: r, destination: destIndex, inverseSlot: inverseSlot, storesForeignKey: storesKey,
                        inverseIsToMany: inverse.isToMany)
                })
        }
        entities = built
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
                if r.isToMany && inv.isToMany { throw .manyToManyUnsupported(entity: e.name, relationship: r.name) }
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
            || name.contains("\"") || name.contains("\0")
        {
            throw .reservedName(name)
        }
    }
}
