/// A failure of the store, with what was being done and where: a code to catch by, a sentence a user can
/// read, the entity, property and object involved, and the storage engine's own report when it reported the
/// failure (``EngineReport``: for SQLite, like GRDB's `DatabaseError`).
///
/// ```swift
/// do { try context.save() } catch StoreError.uniqueConstraint { … }
/// ```
public struct StoreError: UserFacingError, Equatable, Sendable {
    /// What kind of failure: what a program catches by (`catch StoreError.busy`).
    ///
    /// ```swift
    /// if let error = error as? StoreError, error.code == .busy { print("try again") }
    /// ```
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
        /// A save would give two objects the same value of a unique attribute or index.
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

    /// What kind of failure it is.
    public var code: Code
    /// A sentence a user can read.
    public var message: String
    /// The store's file, when the failure is about one.
    public var path: String?
    /// The entity involved, when known.
    public var entity: String?
    /// The property involved, when known.
    public var property: String?
    /// The object the failure is about, when one could be found.
    public var object: ObjectID?
    /// What the storage engine itself reported, when it reported the failure (for logs and bug reports).
    public var engine: EngineReport?

    /// A storage engine's own report of a failure: for the SQLite store, SQLite's extended result code, its
    /// message and the statement that failed.
    ///
    /// ```swift
    /// if let report = error.engine { print("SQLite \(report.code): \(report.message ?? "")") }
    /// ```
    public struct EngineReport: Equatable, Sendable {
        /// The engine's result code (SQLite's extended result code).
        public var code: Int32
        /// The engine's own message, if it gave one.
        public var message: String?
        /// The statement that failed (SQL, for SQLite), if known.
        public var statement: String?

        /// A report of the engine's result `code`, with its message and the failing statement when known.
        public init(code: Int32, message: String? = nil, statement: String? = nil) {
            self.code = code
            self.message = message
            self.statement = statement
        }
    }

    /// A failure of kind `code`: `message` is a sentence a user can read, the rest says what it is about.
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
    /// Matches ``Code/cannotOpen`` in a `catch`.
    public static let cannotOpen = Code.cannotOpen
    /// Matches ``Code/notADatabase`` in a `catch`.
    public static let notADatabase = Code.notADatabase
    /// Matches ``Code/notAStore`` in a `catch`.
    public static let notAStore = Code.notAStore
    /// Matches ``Code/incompatibleModel`` in a `catch`.
    public static let incompatibleModel = Code.incompatibleModel
    /// Matches ``Code/newerModel`` in a `catch`.
    public static let newerModel = Code.newerModel
    /// Matches ``Code/needsUpgrade`` in a `catch`.
    public static let needsUpgrade = Code.needsUpgrade
    /// Matches ``Code/unknownEntity`` in a `catch`.
    public static let unknownEntity = Code.unknownEntity
    /// Matches ``Code/unknownProperty`` in a `catch`.
    public static let unknownProperty = Code.unknownProperty
    /// Matches ``Code/invalidRequest`` in a `catch`.
    public static let invalidRequest = Code.invalidRequest
    /// Matches ``Code/notSelfToMany`` in a `catch`.
    public static let notSelfToMany = Code.notSelfToMany
    /// Matches ``Code/uniqueConstraint`` in a `catch`.
    public static let uniqueConstraint = Code.uniqueConstraint
    /// Matches ``Code/foreignKey`` in a `catch`.
    public static let foreignKey = Code.foreignKey
    /// Matches ``Code/conflict`` in a `catch`.
    public static let conflict = Code.conflict
    /// Matches ``Code/diskFull`` in a `catch`.
    public static let diskFull = Code.diskFull
    /// Matches ``Code/busy`` in a `catch`.
    public static let busy = Code.busy
    /// Matches ``Code/readOnly`` in a `catch`.
    public static let readOnly = Code.readOnly
    /// Matches ``Code/storage`` in a `catch`.
    public static let storage = Code.storage
}
