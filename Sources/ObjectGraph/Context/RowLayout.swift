/// Which columns a read of an entity's rows selects, and where each lands in an object's values: every
/// stored column (whole rows), or a fetch's `propertiesToFetch` and sort keys (partial rows).
struct RowLayout: Sendable {
    /// The stored slots read, in column order (after the ID).
    let slots: [Int]
    /// For each slot, its column in a row of `columns` (0 for slots that are not read).
    let columnOfSlot: [Int32]
    /// Stored slots a row of this layout leaves out: an object made from one is a partial fault that
    /// loads the rest of its row when one of these is touched. Within an entity it also names the layout
    /// (0: whole rows), which is what statement caches key on.
    let missing: UInt64
    /// The type each column after `id` is read as.
    let columnTypes: [AttributeType]

    /// The layout a fetch of `request` reads: whole rows, or its `propertiesToFetch`, with the sort keys
    /// when `sortKeys` (they carry an ordered read on from one batch to the next).
    init(_ request: FetchRequest, _ entity: EntityDescription, sortKeys: Bool = true) throws(StoreError) {
        guard let names = request.propertiesToFetch else {
            self = entity.wholeRow
            return
        }
        var slots = sortKeys ? Set(request.sortKeys.compactMap { entity.property($0.key)?.slot }) : []
        for name in names { slots.insert(try entity.storedProperty(name).slot) }
        self.init(entity.properties, storedSlots: entity.storedSlots, slots: slots)
    }

    /// The layout reading `slots` (stored slots), in column order.
    init(_ properties: [PropertyDescription], storedSlots: [Int], slots: Set<Int>) {
        let read = storedSlots.filter(slots.contains)
        self.slots = read
        var columnOfSlot = [Int32](repeating: 0, count: properties.count)
        for (k, slot) in read.enumerated() { columnOfSlot[slot] = Int32(k + 1) }
        self.columnOfSlot = columnOfSlot
        columnTypes = read.map { properties[$0].attribute?.type ?? .integer64 }
        let bits = read.reduce(UInt64(0)) { $0 | 1 << UInt64($1) }
        missing = storedSlots.reduce(UInt64(0)) { $0 | 1 << UInt64($1) } & ~bits
    }
}
