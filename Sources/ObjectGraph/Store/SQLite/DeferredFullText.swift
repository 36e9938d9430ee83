/// Search-index rows a write transaction has not handed to FTS5 yet (`SQLiteStore.writeFullText`): FTS5
/// writes out the terms it holds at the start of every statement that may need undoing on its own (a
/// multi-row INSERT), so rows handed over a batch at a time (`Context.flushRows`) each made a small segment
/// to merge. Held here, they go over a megabyte or two at a time, and always before anything reads or
/// changes the index and before the commit. The texts are kept as bytes end to end, not as strings, so
/// what is held costs little more than its text.
struct DeferredFullText {
    /// One entity's rows: their IDs, and for each row its indexed texts' lengths in `bytes` (-1 for none).
    struct Rows {
        var ids: [Int64] = []
        var lengths: [Int32] = []
        var bytes: [UInt8] = []
    }

    /// By entity index.
    var rows: [Int: Rows] = [:]
    /// The bytes of the texts held.
    var bytes = 0

    /// What is held before it is handed over, whatever the size of the save.
    static let limit = 4 << 20

    var isEmpty: Bool { rows.isEmpty }

    mutating func append(_ entity: Int, _ id: Int64, _ texts: [String?]) {
        rows[entity, default: Rows()].ids.append(id)
        for text in texts {
            guard let text else {
                rows[entity]!.lengths.append(-1)
                continue
            }
            let utf8 = text.utf8
            rows[entity]!.lengths.append(Int32(utf8.count))
            rows[entity]!.bytes.append(contentsOf: utf8)
            bytes += utf8.count
        }
        bytes += 16
    }
}
