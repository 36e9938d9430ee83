/// The named columns of every row of a fetch, read in the same pass as its IDs (a request with
/// `propertiesToFetch`). Objects made from it are partial faults that read those properties here, with no
/// values of their own, until something needs the whole row.
///
/// It never changes once read. The context's `generation` says whether it may still be used to make
/// objects: any save or merged change after the read may have changed rows it holds.
final class PrefetchedRows {
    let entity: EntityDescription
    /// The named columns only: nothing reads on from a prefetched result, so sort keys are not needed.
    let layout: RowLayout
    /// Row-major: the layout's columns of row 0, then of row 1, …; one buffer instead of an array per row.
    /// Appended to by the store type that reads them (see `PersistentStore.fetchIDs`), and only then: the
    /// fetch fills it before handing the result out, and objects only read it afterwards, one at a time on
    /// the context's thread. No two accesses can overlap, so the per-access exclusivity check (a measurable
    /// part of touching a million prefetched rows) is skipped; `FetchTests` reads every prefetched row back.
    @exclusivity(unchecked) var values: ContiguousArray<Value> = []
    let width: Int
    /// The layout's `missing`, without copying the layout out (and retaining its arrays) per object.
    let missing: UInt64
    /// The context's generation when the rows were read.
    let generation: Int

    init(entity: EntityDescription, layout: RowLayout, generation: Int) {
        self.entity = entity
        self.layout = layout
        self.generation = generation
        width = layout.columnTypes.count
        missing = layout.missing
    }

    /// The value of `slot` in row `row`; slots the layout does not read hold their defaults.
    @inline(__always)
    func value(row: Int, slot: Int) -> Value {
        let column = Int(layout.columnOfSlot[slot])
        return column > 0 ? values[row &* width &+ column &- 1] : entity.defaults[slot]
    }

    /// Every slot of row `row`: what a partial fault made from it holds once it has values of its own.
    func row(_ row: Int) -> [Value] {
        var out: [Value] = []
        out.reserveCapacity(entity.properties.count)
        for slot in 0..<entity.properties.count { out.append(value(row: row, slot: slot)) }
        return out
    }
}
