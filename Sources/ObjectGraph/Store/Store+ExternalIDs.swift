import Foundation

/// UUIDs naming objects outside the store, for a replicator whose server names items by UUID while the
/// store names them by row ID. A name outlives its object, so an undone delete brings back the same name;
/// no UUID ever names two objects, and no object gets two names.
///
/// ```swift
/// let names = try store.externalIDs(for: [item.objectID])      // given now if it had none
/// let local = try store.objects(named: [names[0]])             // [item.objectID]
/// ```
extension Store {
    /// The UUIDs naming `ids`, a new random one given (and kept) to each that had none: in the open write
    /// transaction (inside `Context.transaction`), else in one of its own.
    public func externalIDs(for ids: [ObjectID]) throws(StoreError) -> [UUID] {
        try backend.externalIDs(ids, assign: true).map { $0! }
    }

    /// The UUIDs naming `ids`, nil for those that have none; gives none.
    public func knownExternalIDs(for ids: [ObjectID]) throws(StoreError) -> [UUID?] {
        try backend.externalIDs(ids, assign: false)
    }

    /// The objects `uuids` name in this store, nil for those no object has (had).
    public func objects(named uuids: [UUID]) throws(StoreError) -> [ObjectID?] {
        try backend.objects(named: uuids)
    }

    /// Names `id` by `uuid` (a name taken from elsewhere, such as an item downloaded from a server). True
    /// when it now does; false, writing nothing, when `uuid` names another object that is still stored or
    /// `id` has another name. A name whose object is gone moves to `id`.
    @discardableResult
    public func name(_ id: ObjectID, by uuid: UUID) throws(StoreError) -> Bool {
        try backend.name(id, uuid)
    }
}
