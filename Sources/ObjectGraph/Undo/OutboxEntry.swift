/// One saved action, undo or redo as a store's outbox keeps it for a replicator (a sync sending a device's
/// changes elsewhere): every object the save touched, with its stored values before and after by property
/// name (a to-one relationship as the related row's ID).
///
/// ```swift
/// for entry in try store.outbox(after: lastSent) {
///     send(entry)
///     lastSent = entry.seq
/// }
/// try store.removeOutbox(through: lastSent)
/// ```
public struct OutboxEntry: Sendable {
    /// An object the save touched.
    ///
    /// ```swift
    /// for object in entry.objects where object.after == nil { print("deleted", object.id) }
    /// ```
    public struct Object: Sendable {
        /// The object's ID.
        public let id: ObjectID
        /// Its entity's name.
        public let entity: String
        /// Nil when the save inserted it.
        public let before: [String: Value]?
        /// Nil when the save deleted it.
        public let after: [String: Value]?
    }

    /// What saved it: an action, or an undo or redo of one (which expects what it undoes).
    ///
    /// ```swift
    /// if entry.kind == .undo { print("undid", entry.name) }
    /// ```
    public enum Kind: Int, Sendable {
        /// A new action, an undo of one, a redo of one.
        case action = 0, undo = 1, redo = 2
    }

    /// Its number in the outbox: increasing in commit order, never reused.
    public let seq: Int64
    /// What saved it: an action, an undo or a redo.
    public let kind: Kind
    /// The undo history's action this entry did, or undid or redid (nil when the history kept none: an older
    /// outbox's entry, an action the history did not keep). An undo's entry and the entries of the action it
    /// undoes share it, so a replicator can tell an undo of actions it never sent.
    public let history: Int64?
    /// The action's name ("Add “Milk”"; an undo's is the undone action's).
    public let name: String
    /// In the order the save touched them.
    public let objects: [Object]
    /// Objects the save inserted as rows without keeping their values (a big import): read them from the
    /// store; one deleted since is gone from it.
    public let insertedByID: [ObjectID]

    init(seq: Int64, kind: Kind, history: Int64?, record: UndoRecord, model: Model) {
        self.seq = seq
        self.kind = kind
        self.history = history
        name = record.name
        func named(_ values: [Value]?, _ e: EntityDescription) -> [String: Value]? {
            values.map { v in Dictionary(uniqueKeysWithValues: e.storedSlots.filter { $0 < v.count }.map { (e.properties[$0].name, v[$0]) }) }
        }
        objects = record.entries.map { entry in
            let e = model.entities[entry.id.entity]
            return Object(id: entry.id, entity: e.name, before: named(entry.before, e), after: named(entry.after, e))
        }
        insertedByID = record.fingerprinted.map(\.id)
    }
}
