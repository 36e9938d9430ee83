/// A failure of the store, with what was being done and where: a code to catch by, a sentence a user can
/// read, the entity, property and object involved, and the storage engine's own report when it reported the
/// failure (``EngineReport``: for SQLite, like GRDB's `DatabaseError`).
///
/// ```swift
/// do { try context.save() } catch StoreError.uniqueConstraint { … }
/// ```
public struct StoreError: UserFacingError, Equatable, Sendable {
    public enum Code: String, Equatable, Sendable {
        /// The file could not be opened or created (missing folder, permissions, a FIFO, …).
        case cannotOpen
        /// The file is not a database at all.
        case notADatabase
        /// A database, but not one this library made.
        case notAStore
        /// A model whose changes from the stored one are not additive.
        case incompatibleModel
        /// A newer model wrote the store.
        case newerModel
        /// Opened for reading, but an older model wrote it and its schema must change first.
        case needsUpgrade
        /// A request or insert named an entity the model does not have.
        case unknownEntity
        /// A request named a property the entity does not have, or one that is not stored.
        case unknownProperty
        /// A request that cannot be run as asked (a sectioned results controller whose first sort key is
        /// not its section key).
        case invalidRequest
        /// A relationship was used where a to-many relationship of an entity to itself is needed.
        case notSelfToMany
        case uniqueConstraint
        /// A reference to an object that does not exist (deleted elsewhere, or by this unit of work).
        case foreignKey
        /// A change to an object that another context or process deleted or changed first.
        case conflict
        /// The disk is full or refused to write.
        case diskFull
        /// Another connection held the store locked for too long.
        case busy
        /// The store cannot be written here (a read-only file or folder).
        case readOnly
        /// Any other failure the storage engine reported.
        case storage
    }

    public var code: Code
    /// A sentence a user can read.
    public var message: String
    public var path: String?
    public var entity: String?
    public var property: String?
    /// The object the failure is about, when one could be found.
    public var object: ObjectID?
    /// What the storage engine itself reported, when it reported the failure (for logs and bug reports).
    public var engine: EngineReport?

    /// A storage engine's own report of a failure: for the SQLite store, SQLite's extended result code, its
    /// message and the statement that failed.
    public struct EngineReport: Equatable, Sendable {
        public var code: Int32
        public var message: String?
        public var statement: String?

        public init(code: Int32, message: String? = nil, statement: String? = nil) {
            self.code = code
            self.message = message
            self.statement = statement
        }
    }

    public init(
        _ code: Code, _ message: String, path: String? = nil, entity: String? = nil, property: String? = nil,
        object: ObjectID? = nil, engine: EngineReport? = nil
    ) {
        self.code = code
        self.message = message
        self.path = path
        self.entity = entity
        self.property = property
        self.object = object
        self.engine = engine
    }

    public var description: String {
        var s = message
        if let path { s += " [\(path)]" }
        return s
    }
}

/// Matches a ``StoreError`` with this code, so callers can `catch StoreError.conflict { … }`.
public func ~= (code: StoreError.Code, error: any Error) -> Bool {
    (error as? StoreError)?.code == code
}

/// The codes as patterns: `catch StoreError.conflict` (an enum case would be read as a case pattern, which
/// cannot match `any Error`; a static value is matched with `~=`, like GRDB's `DatabaseError.SQLITE_BUSY`).
extension StoreError {
    public static let cannotOpen = Code.cannotOpen
    public static let notADatabase = Code.notADatabase
    public static let notAStore = Code.notAStore
    public static let incompatibleModel = Code.incompatibleModel
    public static let newerModel = Code.newerModel
    public static let needsUpgrade = Code.needsUpgrade
    public static let unknownEntity = Code.unknownEntity
    public static let unknownProperty = Code.unknownProperty
    public static let notSelfToMany = Code.notSelfToMany
    public static let uniqueConstraint = Code.uniqueConstraint
    public static let foreignKey = Code.foreignKey
    public static let conflict = Code.conflict
    public static let diskFull = Code.diskFull
    public static let busy = Code.busy
    public static let readOnly = Code.readOnly
    public static let storage = Code.storage
}
