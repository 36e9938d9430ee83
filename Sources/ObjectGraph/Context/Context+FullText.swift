extension Context {
    /// The objects of `entity` whose full-text-indexed attributes (see ``FullTextIndex``) contain `text`,
    /// both folded by ``TextFolding``, in ascending ID order, as saved in the store (this context's unsaved
    /// changes are not searched). With `among`, only those of its IDs are tested; at most `limit`.
    public func fullTextMatches(_ text: String, entity name: String, among ids: [ObjectID]? = nil, limit: Int? = nil)
        throws(StoreError) -> [ObjectID]
    {
        let entity = try entity(named: name)
        noteRead(entity.index)
        let rowIDs = ids.map { $0.filter { $0.entity == entity.index }.map(\.rowID) }
        return try store.backend.fullTextMatches(TextFolding.fold(text), of: entity, among: rowIDs, limit: limit)
            .map { ObjectID(entity: entity.index, rowID: $0) }
    }

    /// The row IDs of ``fullTextMatches(_:entity:among:limit:)`` (ascending, all of them), for a caller that
    /// tests many IDs against them and needs no ``ObjectID`` per hit. With `among` (row IDs), only those are
    /// tested, and only the parts of the index that would hold them are read.
    public func fullTextRowIDs(_ text: String, entity name: String, among rowIDs: [Int64]? = nil) throws(StoreError) -> [Int64] {
        guard rowIDs?.isEmpty != true else { return [] }
        let entity = try entity(named: name)
        noteRead(entity.index)
        return try store.backend.fullTextMatches(TextFolding.fold(text), of: entity, among: rowIDs, limit: nil)
    }

    /// The share (0 to 1) of the full-text index a whole search for `text` would read, when the store can
    /// tell without reading it (from filters of the index it holds in memory); nil when it cannot. A search
    /// that reads most of the index can show its first hits before it has read them all.
    public func fullTextShareToRead(_ text: String, entity name: String) throws(StoreError) -> Double? {
        let entity = try entity(named: name)
        noteRead(entity.index)
        return try store.backend.fullTextShareToRead(TextFolding.fold(text), of: entity)
    }

    /// How many objects ``fullTextMatches(_:entity:among:limit:)`` finds for `text`, counted in the store.
    public func fullTextCount(_ text: String, entity name: String) throws(StoreError) -> Int {
        let entity = try entity(named: name)
        noteRead(entity.index)
        return try store.backend.fullTextCount(TextFolding.fold(text), of: entity)
    }

    /// The stored values of `keys` (attributes, or to-one relationships as row IDs in `.integer`) of each
    /// object in `ids`, in order; nil for an object with no stored row. Makes no objects.
    public func storedValues(of ids: [ObjectID], entity name: String, keys: [String]) throws(StoreError) -> [[Value]?] {
        let entity = try entity(named: name)
        noteRead(entity.index)
        var slots: [Int] = []
        for key in keys { slots.append(try entity.storedProperty(key).slot) }
        let layout = RowLayout(entity.properties, storedSlots: entity.storedSlots, slots: Set(slots))
        var out: [[Value]?] = []
        out.reserveCapacity(ids.count)
        var start = 0
        while start < ids.count {
            let chunk = ids[start..<min(ids.count, start + 500)]
            let rows = try store.backend.rows(of: entity, ids: chunk.map(\.rowID), layout: layout)
            for row in rows { out.append(row.map { r in slots.map { r[$0] } }) }
            start += chunk.count
        }
        return out
    }
}
