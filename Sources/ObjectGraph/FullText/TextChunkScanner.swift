import CTextScan

/// Finds, chunk by chunk (see ``TextChunk``), the rows with a text that contains a needle, as bytes of text
/// folded by ``TextFolding``. The texts of a chunk are searched end to end in one pass (`burrow_text_scan`,
/// in C): a match never spans two texts (the byte that ends each one is not UTF-8, so no needle holds it),
/// and the row of a match is the number of ends before it. IDs are read only as far as the last row found,
/// so a query that matches little costs little more than reading the chunks.
struct TextChunkScanner {
    let needle: [UInt8]
    let columns: Int
    /// The rows found in one chunk, kept from chunk to chunk.
    private var rows: [Int] = []
    /// Their IDs.
    private var ids: [Int64] = []

    init(needle: [UInt8], columns: Int) {
        self.needle = needle
        self.columns = columns
    }

    /// Appends to `hits` the IDs of the chunk's rows with a text containing the needle, ascending, stopping
    /// when `hits` holds `limit`. With `among` (ascending), only those IDs. False when the bytes are not a
    /// chunk (the rows before the damage may have been appended).
    mutating func scan(_ bytes: UnsafeRawBufferPointer, start: Int64, among: [Int64]?, limit: Int, into hits: inout [Int64]) -> Bool {
        guard let (count, offsets) = TextChunk.textStart(bytes), let chunk = bytes.baseAddress else { return false }
        guard !needle.isEmpty, columns > 0 else { return true }
        if rows.count < count { rows = Array(repeating: 0, count: count) }
        let texts = chunk.assumingMemoryBound(to: UInt8.self) + offsets.text
        let length = bytes.count - offsets.text
        let columns = self.columns
        let found = needle.withUnsafeBufferPointer { q in
            rows.withUnsafeMutableBufferPointer { r in
                burrow_text_scan(texts, length, q.baseAddress, q.count, columns, r.baseAddress, count)
            }
        }
        guard found >= 0 else { return false }
        guard found > 0 else { return true }
        if ids.count < found { ids = Array(repeating: 0, count: max(found, count)) }
        let decoded = rows.withUnsafeBufferPointer { r in
            ids.withUnsafeMutableBufferPointer { out in
                burrow_chunk_ids(
                    chunk.assumingMemoryBound(to: UInt8.self) + offsets.ids, offsets.text - offsets.ids, start, r.baseAddress, found,
                    out.baseAddress)
            }
        }
        guard decoded != 0 else { return false }
        let taken = min(found, limit - hits.count)
        if let among {
            for k in 0..<found where hits.count < limit && TextChunkScanner.contains(among, ids[k]) { hits.append(ids[k]) }
        } else if taken > 0 {
            hits.append(contentsOf: ids[0..<taken])
        }
        return true
    }

    /// True when the ascending `ids` hold `id`.
    static func contains(_ ids: [Int64], _ id: Int64) -> Bool {
        var lo = 0, hi = ids.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ids[mid] < id { lo = mid + 1 } else { hi = mid }
        }
        return lo < ids.count && ids[lo] == id
    }
}
