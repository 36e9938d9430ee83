/// Writes a run of rows as chunks of at most ``TextChunk/capacity`` bytes, in ascending ID order: the first
/// under `key` (a chunk's own start, kept so that its row is replaced in place), the next ones under their
/// first IDs.
struct TextChunkWriter {
    var chunk: TextChunk
    var key: Int64?
    /// True once a chunk went under the original key.
    private(set) var wroteKey = false
    private let originalKey: Int64?

    init(columns: Int, key: Int64?) {
        chunk = TextChunk(columns: columns)
        self.key = key
        originalKey = key
    }

    /// True when a row of about `size` bytes more would take the chunk past its capacity.
    func wouldOverflow(_ id: Int64, size: Int) -> Bool {
        !chunk.isEmpty && chunk.size + size + 10 > TextChunk.capacity
    }

    mutating func add(_ id: Int64, text: (Int) -> String?, _ write: (Int64, [UInt8]) throws -> Void) throws {
        var texts: [String?] = []
        texts.reserveCapacity(chunk.columns)
        var size = 0
        for c in 0..<chunk.columns {
            let t = text(c)
            size += (t?.utf8.count ?? 0) + 2
            texts.append(t)
        }
        if wouldOverflow(id, size: size) { try flush(write) }
        chunk.append(id) { texts[$0] }
    }

    mutating func flush(_ write: (Int64, [UInt8]) throws -> Void) throws {
        guard !chunk.isEmpty else { return }
        let k = key ?? chunk.ids[0]
        try write(k, chunk.encoded(start: k))
        if key != nil && key == originalKey { wroteKey = true }
        key = nil
        chunk.removeAll()
    }

    mutating func finish(_ write: (Int64, [UInt8]) throws -> Void) throws { try flush(write) }
}
