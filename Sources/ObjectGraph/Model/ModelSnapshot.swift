import Foundation

/// The storable description of a model: what the version hash digests, and what a store records so that
/// a later model can be compared with the one that wrote it.
struct ModelSnapshot: Codable, Equatable, Sendable {
    struct AttributeSnapshot: Codable, Equatable, Sendable {
        var name: String
        var type: AttributeType
        var optional: Bool
        var defaultValue: String?
        var minimum: Double?
        var maximum: Double?
        var minLength: Int?
        var maxLength: Int?
        var pattern: String?
        var indexed: Bool
        var unique: Bool
        var transient: Bool
        /// "count(relationship)" for a count the store maintains; absent otherwise, so models without one
        /// keep their hash.
        var maintained: String?
    }

    struct EntitySnapshot: Codable, Equatable, Sendable {
        var name: String
        var attributes: [AttributeSnapshot]
        var relationships: [Relationship]
        /// The relationships whose foreign key column is in this entity's table.
        var foreignKeys: [String]
        var indexes: [CompoundIndex]
        /// The attributes of the entity's full-text index; absent without one, so other models keep their hash.
        var fullText: [String]?

        var storedAttributes: [AttributeSnapshot] { attributes.filter { !$0.transient } }
    }

    var version: Int
    var entities: [EntitySnapshot]

    init(version: Int, entities: [EntityDescription]) {
        self.version = version
        self.entities = entities.map { e in
            EntitySnapshot(
                name: e.name,
                attributes: e.properties.compactMap { p in
                    p.attribute.map { a in
                        AttributeSnapshot(
                            name: a.name, type: a.type, optional: a.isOptional,
                            defaultValue: a.defaultValue.isNull ? nil : ValueCoding.encode(a.defaultValue),
                            minimum: a.minimum, maximum: a.maximum, minLength: a.minLength, maxLength: a.maxLength,
                            pattern: a.pattern, indexed: a.isIndexed, unique: a.isUnique, transient: a.isTransient,
                            maintained: a.countedRelationship.map { "count(\($0))" })
                    }
                }.sorted { $0.name < $1.name },
                relationships: e.properties.compactMap { $0.relationship?.relationship }.sorted { $0.name < $1.name },
                foreignKeys: e.properties.compactMap { p in p.relationship.flatMap { $0.storesForeignKey ? p.name : nil } }
                    .sorted(),
                indexes: e.indexes,
                fullText: e.fullTextSlots.isEmpty ? nil : e.fullTextSlots.map { e.properties[$0].name })
        }.sorted { $0.name < $1.name }
    }

    func entity(_ name: String) -> EntitySnapshot? { entities.first { $0.name == name } }

    /// The canonical JSON (sorted keys) the hash digests and a store records.
    var json: Data {
        if let bytes = plainJSON() { return Data(bytes) }
        return encodedJSON
    }

    /// What `JSONEncoder` writes with sorted keys.
    var encodedJSON: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try! encoder.encode(self)
    }

    static func decode(_ data: Data) -> ModelSnapshot? {
        try? JSONDecoder().decode(ModelSnapshot.self, from: data)
    }

    /// FNV-1a over the canonical JSON: stable across runs and machines (Swift's `Hasher` is seeded per process).
    /// Every process computes it for its model, before it opens a store.
    var hash: String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        // The bytes as an array: `Data`'s iterator is not inlined across modules (4,000 calls a process).
        for b in plainJSON() ?? [UInt8](encodedJSON) {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01b3
        }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// A value written as text, for defaults in a stored model.
enum ValueCoding {
    static func encode(_ v: Value) -> String {
        switch v {
        case .null: return "null"
        case .string(let s): return "s:" + s
        case .integer(let i): return "i:\(i)"
        case .double(let d): return "d:\(d)"
        case .bool(let b): return b ? "b:1" : "b:0"
        case .date(let d): return "t:\(d.timeIntervalSince1970)"
        case .data(let d): return "x:" + d.map { String(format: "%02x", $0) }.joined()
        case .uuid(let u): return "u:" + u.uuidString
        }
    }
}
