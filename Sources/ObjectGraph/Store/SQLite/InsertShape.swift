/// What an `INSERT` statement of `SQLiteStore.writeRun` is built for: the entity, how many rows it takes,
/// and the stored slots (a mask) whose columns it leaves out.
struct InsertShape: Hashable {
    let entity: Int
    let rows: Int
    let omitted: UInt64
}
