/// The declaration of an entity: its attributes, relationships and indexes.
///
/// ```swift
/// Entity("Color") {
///     Attribute("red", .double, min: 0, max: 1)
///     Attribute("name", default: "Unnamed Color", indexed: true)
/// }
/// ```
public struct Entity: Sendable {
    /// The entity's name, unique in the model (the name of its table in the store).
    public let name: String
    /// Its attributes, in declaration order.
    public var attributes: [Attribute] = []
    /// Its relationships, in declaration order.
    public var relationships: [Relationship] = []
    /// Its compound indexes.
    public var indexes: [CompoundIndex] = []
    /// The attributes searched as text (see ``FullTextIndex``), if any.
    public var fullTextIndex: FullTextIndex?
    /// The class instantiated for this entity's objects (a subclass of ``ManagedObject``).
    public var objectType: ManagedObject.Type

    /// An entity named `name` whose objects are instances of `type`, with the attributes, relationships and indexes `members` lists.
    public init(_ name: String, type: ManagedObject.Type = ManagedObject.self, @EntityBuilder _ members: () -> [EntityMember]) {
        self.name = name
        self.objectType = type
        for m in members() {
            switch m {
            case .attribute(let a): attributes.append(a)
            case .relationship(let r): relationships.append(r)
            case .index(let i): indexes.append(i)
            case .fullText(let f): fullTextIndex = f
            }
        }
    }
}

/// One line of an entity declaration.
///
/// ```swift
/// let members: [EntityMember] = [.attribute(Attribute("title", .string)), .index(CompoundIndex("title"))]
/// ```
public enum EntityMember: Sendable {
    /// An attribute.
    case attribute(Attribute)
    /// A relationship.
    case relationship(Relationship)
    /// A compound index.
    case index(CompoundIndex)
    /// The full-text index (the last one listed wins).
    case fullText(FullTextIndex)
}

/// Lets an entity be declared as a list of attributes, relationships and indexes.
///
/// ```swift
/// Entity("Item") {
///     Attribute("title", .string)
///     if withNotes { Attribute("note", .string, optional: true) }
/// }
/// ```
@resultBuilder
public enum EntityBuilder {
    public static func buildExpression(_ a: Attribute) -> [EntityMember] { [.attribute(a)] }
    public static func buildExpression(_ r: Relationship) -> [EntityMember] { [.relationship(r)] }
    public static func buildExpression(_ i: CompoundIndex) -> [EntityMember] { [.index(i)] }
    public static func buildExpression(_ f: FullTextIndex) -> [EntityMember] { [.fullText(f)] }
    public static func buildBlock(_ parts: [EntityMember]...) -> [EntityMember] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [EntityMember]?) -> [EntityMember] { part ?? [] }
    public static func buildEither(first: [EntityMember]) -> [EntityMember] { first }
    public static func buildEither(second: [EntityMember]) -> [EntityMember] { second }
    public static func buildArray(_ parts: [[EntityMember]]) -> [EntityMember] { parts.flatMap { $0 } }
}

/// Lets a model be declared as a list of entities.
///
/// ```swift
/// let model = try Model {
///     Entity("Tag") { Attribute("name", .string) }
///     for name in ["Note", "Task"] { Entity(name) { Attribute("title", .string) } }
/// }
/// ```
@resultBuilder
public enum ModelBuilder {
    public static func buildExpression(_ e: Entity) -> [Entity] { [e] }
    public static func buildBlock(_ parts: [Entity]...) -> [Entity] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [Entity]?) -> [Entity] { part ?? [] }
    public static func buildEither(first: [Entity]) -> [Entity] { first }
    public static func buildEither(second: [Entity]) -> [Entity] { second }
    public static func buildArray(_ parts: [[Entity]]) -> [Entity] { parts.flatMap { $0 } }
}
