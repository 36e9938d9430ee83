/// The sort keys of a results controller's rows in list order, each as a fixed record of the first 32 bytes
/// `SortKeyBytes` writes for it (four big-endian words, zeros after a shorter row): placing the rows a change
/// brought in among 100,000 compares records in one array, about one cache line a step, where looking keys up
/// by ID hashed, retained and switched on `Value`s (most of a background import's frame, 2026-12-01).
///
/// Rows' full bytes never are a prefix of one another's (`SortKeyBytes`), so two different rows' records
/// differ within 32 bytes unless one row's bytes run longer than that: records that compare equal leave the
/// order to the rows' full keys.
struct ListKeyRecords {
    /// One row's record.
    struct Record: Equatable {
        var w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64
    }

    /// The list the records describe, sharing its buffer: see `describes(_:)`.
    var list: [Int64]
    private(set) var records: [Record]
    private var encoder: SortKeyBytes

    /// Records for the rows of `list`, whose normalized sort keys are `keys` (in the same order), or nil when
    /// their numbers cannot be written in one form (see `SortKeyBytes.forms(of:slots:)`).
    init?(_ keys: [[Value]], of list: [Int64], ascending: [Bool], idAscending: Bool) {
        precondition(keys.count == list.count, "a record for each row")
        guard let forms = SortKeyBytes.forms(of: keys, slots: ascending.count) else { return nil }
        encoder = SortKeyBytes(forms: forms, ascending: ascending, idAscending: idAscending)
        self.list = list
        records = []
        records.reserveCapacity(list.count)
        for (k, id) in zip(keys, list) { records.append(encode(k, id)) }
    }

    /// The number of rows.
    var count: Int { records.count }

    /// True when these are the records of `list`: it is the very array they were kept for (the same
    /// buffer, which no change can have written to while both hold it), not merely an equal one.
    func describes(_ list: [Int64]) -> Bool {
        guard list.count == records.count, self.list.count == records.count else { return false }
        // Safe: the two buffers' addresses are compared, nothing is read through them.
        return list.withUnsafeBufferPointer { a in self.list.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }

    /// The record of a row, or nil when its numbers do not fit the forms the records were written in.
    mutating func record(_ keys: [Value], _ id: Int64) -> Record? {
        encoder.fits(keys) ? encode(keys, id) : nil
    }

    /// The order of the row at `position` and the row of `record`: -1 before, 1 after, 0 when their first 32
    /// bytes agree and only their full keys can tell.
    func compare(at position: Int, with record: Record) -> Int {
        let r = records[position]
        if r.w0 != record.w0 { return r.w0 < record.w0 ? -1 : 1 }
        if r.w1 != record.w1 { return r.w1 < record.w1 ? -1 : 1 }
        if r.w2 != record.w2 { return r.w2 < record.w2 ? -1 : 1 }
        if r.w3 != record.w3 { return r.w3 < record.w3 ? -1 : 1 }
        return 0
    }

    /// Takes out the rows at `positions` (ascending, distinct), as the list does.
    mutating func remove(atAscending positions: [Int]) {
        guard !positions.isEmpty else { return }
        var kept: [Record] = []
        kept.reserveCapacity(records.count - positions.count)
        var from = 0
        for p in positions {
            kept.append(contentsOf: records[from..<p])
            from = p + 1
        }
        kept.append(contentsOf: records[from...])
        records = kept
    }

    /// Puts `incoming[j]` before the row now at `places[j]` (places ascending; equal places keep
    /// `incoming`'s order), as the list's merge does.
    mutating func insert(_ incoming: [Record], at places: [Int]) {
        guard !incoming.isEmpty else { return }
        records = records.merging(incoming, at: places)
    }

    private mutating func encode(_ keys: [Value], _ id: Int64) -> Record {
        encoder.removeAll()
        encoder.appendRow(keys, id)
        // Safe: every index read is checked against the buffer's count (ListKeyRecordsTests run under
        // AddressSanitizer in CI's second pass).
        return encoder.bytes.withUnsafeBufferPointer { b in
            func word(_ k: Int) -> UInt64 {
                var w: UInt64 = 0
                for i in (8 * k)..<(8 * k + 8) { w = w << 8 | UInt64(i < b.count ? b[i] : 0) }
                return w
            }
            return Record(w0: word(0), w1: word(1), w2: word(2), w3: word(3))
        }
    }
}
