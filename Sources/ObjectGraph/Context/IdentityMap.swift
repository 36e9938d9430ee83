import Foundation

/// A context's identity map: at most one object per ID.
///
/// An open-addressing table keyed by the row ID (unique across entities, so the entity only breaks ties
/// between IDs nobody should make): a multiply-shift hash instead of `Hasher`'s SipHash, and a class
/// over a raw buffer so the hot lookups of a fetch pay neither hashing rounds nor exclusivity checks.
final class IdentityMap {
    private struct Entry {
        var rowID: Int64
        var object: ManagedObject?
    }

    private var table: UnsafeMutablePointer<Entry>
    private var capacity: Int
    /// 64 minus the number of bits of a block number.
    private var shift: UInt64
    /// Registered objects.
    private(set) var count = 0

    init() {
        capacity = 64
        shift = UInt64(64 - 6 + IdentityMap.blockBits)
        table = Self.emptyTable(capacity)
    }

    deinit {
        table.deinitialize(count: capacity)
        free(table)
    }

    /// Row IDs are placed in blocks of 16 consecutive IDs: a block's slot is a Fibonacci hash of the block
    /// number, which spreads blocks evenly whatever the stride between IDs, and within a block IDs keep
    /// their order. Objects made one after another (a bulk insert, a fetch in ID order) then sit side by
    /// side in the table and in memory, so filling the map and releasing it at the end walk memory in
    /// order instead of missing the cache once per object (that made freeing 100,000 objects 2.5 times
    /// slower).
    private static let blockBits = 4

    @inline(__always)
    private func home(_ rowID: Int64) -> Int {
        let block = (UInt64(bitPattern: rowID >> Int64(Self.blockBits)) &* 0x9E37_79B9_7F4A_7C15) >> shift
        return Int(truncatingIfNeeded: block) << Self.blockBits | Int(truncatingIfNeeded: rowID) & (1 << Self.blockBits - 1)
    }

    /// The slot holding `id`, or the empty slot where it would go.
    @inline(__always)
    private func find(_ id: ObjectID) -> (slot: Int, found: Bool) {
        let mask = capacity - 1
        var i = home(id.rowID)
        while let o = table[i].object {
            if table[i].rowID == id.rowID && o.objectID.entity == id.entity { return (i, true) }
            i = (i + 1) & mask
        }
        return (i, false)
    }

    subscript(id: ObjectID) -> ManagedObject? {
        get {
            let (slot, found) = find(id)
            return found ? table[slot].object : nil
        }
        set {
            if let newValue { insert(newValue, for: id) } else { remove(id) }
        }
    }

    /// The object registered for `id`, or the one `make` makes, registered at once: one probe for the
    /// lookup and the insert of a fetch that makes a new object per row.
    @inline(__always)
    func object(for id: ObjectID, orMake make: () -> ManagedObject) -> (object: ManagedObject, isNew: Bool) {
        let (slot, found) = find(id)
        if found { return (table[slot].object!, false) }
        let object = make()
        add(object, for: id, at: slot)
        return (object, true)
    }

    private func insert(_ object: ManagedObject, for id: ObjectID) {
        let (slot, found) = find(id)
        if found { table[slot].object = object } else { add(object, for: id, at: slot) }
    }

    /// Registers `object` for an `id` not in the map, whose empty slot `find` gave.
    @inline(__always)
    private func add(_ object: ManagedObject, for id: ObjectID, at emptySlot: Int) {
        var slot = emptySlot
        // At most half full keeps probe sequences short.
        if (count + 1) * 2 > capacity {
            grow(to: capacity * 2)
            slot = find(id).slot
        }
        count += 1
        table[slot].rowID = id.rowID
        table[slot].object = object
    }

    private func remove(_ id: ObjectID) {
        var (hole, found) = find(id)
        guard found else { return }
        table[hole].object = nil
        count -= 1
        // Backward-shift deletion: move later members of the run into the hole so that every entry
        // stays reachable from its home slot without tombstones.
        let mask = capacity - 1
        var i = (hole + 1) & mask
        while table[i].object != nil {
            let h = home(table[i].rowID)
            // Move the entry when its home is not in the cyclic range (hole, i].
            if (i > hole && (h <= hole || h > i)) || (i < hole && h <= hole && h > i) {
                table[hole] = table[i]
                table[i].object = nil
                hole = i
            }
            i = (i + 1) & mask
        }
    }

    /// Makes room for `n` objects in all, so a batch of inserts does not rehash on the way.
    func reserveCapacity(_ n: Int) {
        var c = capacity
        while n * 2 > c { c *= 2 }
        if c > capacity { grow(to: c) }
    }

    private func grow(to newCapacity: Int) {
        let old = table, oldCapacity = capacity
        capacity = newCapacity
        shift = UInt64(64 - newCapacity.trailingZeroBitCount + Self.blockBits)
        table = Self.emptyTable(newCapacity)
        let mask = newCapacity - 1
        for k in 0..<oldCapacity where old[k].object != nil {
            var i = home(old[k].rowID)
            while table[i].object != nil { i = (i + 1) & mask }
            // Moves the reference: the old slot is deallocated without releasing it.
            table[i] = (old + k).move()
        }
        // Every occupied old slot was moved out; the rest hold nil and need no deinitialization.
        free(old)
    }

    /// A table of `capacity` empty entries. All-zero bytes are an empty entry (row 0, no object), and
    /// `calloc` gets a large table as fresh zero pages from the system instead of writing zeros over it:
    /// filling the map for a long fetch no longer clears every table it outgrows.
    private static func emptyTable(_ capacity: Int) -> UnsafeMutablePointer<Entry> {
        guard let raw = calloc(capacity, MemoryLayout<Entry>.stride) else { fatalError("out of memory for \(capacity) objects") }
        return raw.bindMemory(to: Entry.self, capacity: capacity)
    }

    /// Calls `body` with every registered object, in no particular order.
    func forEachObject(_ body: (ManagedObject) -> Void) {
        for k in 0..<capacity { if let o = table[k].object { body(o) } }
    }

    /// The registered objects, in no particular order.
    var values: [ManagedObject] {
        var out: [ManagedObject] = []
        out.reserveCapacity(count)
        for k in 0..<capacity { if let o = table[k].object { out.append(o) } }
        return out
    }
}
