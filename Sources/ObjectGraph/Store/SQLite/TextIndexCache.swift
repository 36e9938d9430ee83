import CTextScan
import Dispatch

/// An entity's search index (its chunks, see ``TextChunk``) held in memory by the store that searches it
/// again and again (the outliner's search as the user types): the scan then reads memory, not SQLite's
/// pages (29 MB at a million items: the faults, the copies and the VM were two thirds of a search).
///
/// It is the index as of one entry of the change log (``seq``), and is brought up to date from the log:
/// the chunks around each row the entries since then inserted, deleted or changed the indexed text of
/// are read again. Anything it cannot account for that way (entries pruned or unreadable, the index built
/// again, too much changed) reads it whole.
final class TextIndexCache {
    /// The change-log entry it is current with.
    var seq: Int64
    /// The index build it was read from (a token written with each build; nil for one an earlier version
    /// built): a build since reads it whole.
    var build: String?
    /// The chunks' starts, ascending, and their encoded bytes.
    private(set) var starts: [Int64]
    private(set) var chunks: [[UInt8]]
    /// The bytes it holds.
    private(set) var bytes: Int
    /// Each chunk's filter (``filterStride`` words from `k * filterStride`): the pairs of adjacent bytes in
    /// its texts, hashed to ``filterWords`` words of bits, then the bytes in them, a bit each (4 words). A
    /// search for a word rare in the outline passes by every chunk that lacks one of its pairs or bytes,
    /// without reading its texts (a thousand hits among a million items read 29 MB); a one-byte search
    /// passes by those without its byte.
    private(set) var filters: [UInt64]
    /// Each chunk's rows and its texts' count, or -1 for a chunk whose bytes are damaged: only a chunk whose
    /// texts are rows × columns may be passed by (a damaged one is scanned, and the scan says so).
    private(set) var shapes: [(rows: Int, texts: Int)]

    /// How many chunks the last scan passed by through their filters.
    private(set) var passedBy = 0

    /// 2,048 bits of pairs a chunk, for a chunk's few thousand bytes of text, and 256 of bytes (2.2 MB at a
    /// million items).
    static let filterWords = 32
    static let filterStride = filterWords + 4

    init(seq: Int64, build: String?, starts: [Int64], chunks: [[UInt8]]) {
        self.seq = seq
        self.build = build
        self.starts = starts
        self.chunks = chunks
        bytes = chunks.reduce(0) { $0 + $1.count }
        (filters, shapes) = Self.filters(of: chunks)
    }

    /// The pair filters and shapes of `chunks`; many chunks (a whole index held) in two halves on two threads,
    /// as a scan is: a pass over 29 MB that the second whole search of a million items waits for.
    static func filters(of chunks: [[UInt8]], parallelFrom: Int = parallelChunks) -> (filters: [UInt64], shapes: [(rows: Int, texts: Int)]) {
        var filters = [UInt64](repeating: 0, count: chunks.count * filterStride)
        var shapes = [(rows: Int, texts: Int)](repeating: (0, -1), count: chunks.count)
        let halves = chunks.count >= parallelFrom ? 2 : 1
        let per = (chunks.count + halves - 1) / halves
        filters.withUnsafeMutableBufferPointer { f in
            shapes.withUnsafeMutableBufferPointer { s in
                let slots = FilterSlots(filters: f.baseAddress!, shapes: s.baseAddress!)
                DispatchQueue.concurrentPerform(iterations: halves) { half in
                    for k in (half * per)..<min(chunks.count, (half + 1) * per) {
                        slots.fill(k, from: chunks[k])
                    }
                }
            }
        }
        return (filters, shapes)
    }

    /// The bits of `needle`'s pairs and bytes, as (word, mask) of a chunk's filter, each once.
    static func needleBits(_ needle: [UInt8]) -> [(word: Int, mask: UInt64)] {
        let mask = UInt32(filterWords * 64 - 1)
        var bits: [(word: Int, mask: UInt64)] = []
        func add(_ bit: Int) {
            let b = (word: bit >> 6, mask: UInt64(1) << UInt64(bit & 63))
            if !bits.contains(where: { $0 == b }) { bits.append(b) }
        }
        for i in needle.indices {
            if i > 0 { add(Int(burrow_pair_bit(needle[i - 1], needle[i], mask))) }
            add(filterWords * 64 + Int(needle[i]))
        }
        return bits
    }

    /// True when chunk `k` cannot hold `bits` (``needleBits(_:)``): one of them is clear in its filter and
    /// the chunk is sound (a damaged one is always scanned, so that the scan says so).
    func passes(_ k: Int, _ bits: [(word: Int, mask: UInt64)], columns: Int) -> Bool {
        Self.passes(k, bits, columns: columns, filters: filters, shapes: shapes)
    }

    /// ``passes(_:_:columns:)`` on copies of the filters and shapes (for the threads of a parallel scan).
    static func passes(
        _ k: Int, _ bits: [(word: Int, mask: UInt64)], columns: Int, filters: [UInt64], shapes: [(rows: Int, texts: Int)]
    ) -> Bool {
        guard !bits.isEmpty, shapes[k].texts >= 0, shapes[k].texts == shapes[k].rows * columns else { return false }
        let base = k * filterStride
        return bits.contains { filters[base + $0.word] & $0.mask == 0 }
    }

    /// The share of the index's bytes a whole search for `needle` reads (those of the chunks its filters
    /// cannot pass by), from the filters alone.
    func shareToRead(_ needle: [UInt8], columns: Int) -> Double {
        guard bytes > 0 else { return 0 }
        let bits = Self.needleBits(needle)
        var read = 0
        for k in chunks.indices where !passes(k, bits, columns: columns) { read += chunks[k].count }
        return Double(read) / Double(bytes)
    }

    /// The most index bytes a store keeps in memory; a bigger index is read from the file by each search.
    static let limit = 64 << 20

    /// The position of the chunk that would hold `id` (the greatest start not above it), -1 for none.
    func segment(of id: Int64) -> Int {
        var lo = 0, hi = starts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if starts[mid] <= id { lo = mid + 1 } else { hi = mid }
        }
        return lo - 1
    }

    /// The position of the first chunk whose start is `id` or above (``starts``' count for none).
    func firstStart(atLeast id: Int64) -> Int {
        var lo = 0, hi = starts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if starts[mid] < id { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Replaces the chunks whose starts lie in `lo..<hi` (nil: unbounded) by `fresh` (ascending, in the same
    /// range).
    func replace(from lo: Int64?, to hi: Int64?, with fresh: [(start: Int64, bytes: [UInt8])]) {
        let first = lo.map(firstStart(atLeast:)) ?? 0
        let end = hi.map(firstStart(atLeast:)) ?? starts.count
        for k in first..<end { bytes -= chunks[k].count }
        starts.replaceSubrange(first..<end, with: fresh.map(\.start))
        chunks.replaceSubrange(first..<end, with: fresh.map(\.bytes))
        bytes += fresh.reduce(0) { $0 + $1.bytes.count }
        let made = Self.filters(of: fresh.map(\.bytes))
        filters.replaceSubrange((first * Self.filterStride)..<(end * Self.filterStride), with: made.filters)
        shapes.replaceSubrange(first..<end, with: made.shapes)
    }

    /// The rows among `ids` (ascending) whose texts hold `needle`, ascending, reading only the chunks that
    /// would hold them (a page of a walk through the outline reads two or three, not the whole index); nil
    /// when one of those chunks is damaged or claims a row that lies in another chunk's run.
    func scan(_ needle: [UInt8], columns: Int, onlyAmong ids: [Int64]) -> [Int64]? {
        var scanner = TextChunkScanner(needle: needle, columns: columns)
        let bits = Self.needleBits(needle)
        var hits: [Int64] = []
        var previous = -1
        for id in ids {
            // Ascending IDs lie in ascending chunks: each chunk is met in one run.
            let k = segment(of: id)
            guard k >= 0, k != previous else { continue }
            previous = k
            if passes(k, bits, columns: columns) { continue }
            let before = hits.count
            let sound = chunks[k].withUnsafeBytes { scanner.scan($0, start: starts[k], among: ids, limit: Int.max, into: &hits) }
            guard sound else { return nil }
            // A row found here must lie in this chunk's run, after every row found before.
            guard before == hits.count || (before == 0 || hits[before] > hits[before - 1]) else { return nil }
            if k + 1 < starts.count, let last = hits.last, hits.count > before, last >= starts[k + 1] { return nil }
        }
        return hits
    }

    /// Chunks below this many are scanned on one thread.
    static let parallelChunks = 512

    /// The rows whose texts hold `needle`, ascending, up to `limit` (with `among`, ascending, only those);
    /// nil when a chunk is damaged. A big index is scanned in two halves at once, one on another thread.
    func scan(_ needle: [UInt8], columns: Int, among: [Int64]?, limit: Int, parallelFrom: Int = TextIndexCache.parallelChunks) -> [Int64]? {
        let starts = self.starts, chunks = self.chunks, filters = self.filters, shapes = self.shapes
        let bits = Self.needleBits(needle)
        let halves = chunks.count >= parallelFrom ? 2 : 1
        let results = ScanResults(count: halves)
        let per = (chunks.count + halves - 1) / halves
        DispatchQueue.concurrentPerform(iterations: halves) { half in
            var scanner = TextChunkScanner(needle: needle, columns: columns)
            var hits: [Int64] = []
            var damaged = false
            var skipped = 0
            for k in (half * per)..<min(chunks.count, (half + 1) * per) {
                guard hits.count < limit, !damaged else { break }
                // Chunks hold disjoint runs: a row found in one chunk at or past the next one's start is damage
                // (checked before the chunk may be passed by, which would otherwise hide it).
                if among == nil, let last = hits.last, last >= starts[k] {
                    damaged = true
                    break
                }
                // A chunk without one of the needle's pairs or bytes holds no match, and a sound one reports
                // nothing.
                if Self.passes(k, bits, columns: columns, filters: filters, shapes: shapes) {
                    skipped += 1
                    continue
                }
                chunks[k].withUnsafeBytes { if !scanner.scan($0, start: starts[k], among: among, limit: limit, into: &hits) { damaged = true } }
            }
            results.set(half, damaged ? nil : hits, passedBy: skipped)
        }
        passedBy = (0..<halves).reduce(0) { $0 + results.passedBy($1) }
        var hits: [Int64] = []
        for half in 0..<halves {
            guard let part = results[half] else { return nil }
            // The half's first chunk starts above every row found before it, whether or not it found any.
            if among == nil, let last = hits.last, half * per < starts.count, last >= starts[half * per] { return nil }
            if among == nil, let last = hits.last, let first = part.first, first <= last { return nil }
            hits += part.prefix(limit - hits.count)
        }
        return hits
    }
}

/// The hits of each part of a parallel scan: a slot per part, allocated before the parts start, each written
/// by its own thread only, read after `concurrentPerform` returns.
///
/// Unchecked because the compiler cannot see that this is safe: the slots are distinct memory locations (raw
/// storage, not a Swift array, whose copy-on-write check on a write would touch shared state), each part
/// writes only its own index, and `concurrentPerform` returns only after every part has ended, which orders
/// the writes before the reads. `TextChunkIndexTests.aHeldIndexScannedInTwoHalvesFindsWhatOneThreadFinds`
/// fails when a part writes another's slot.
private final class ScanResults: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<[Int64]?>
    private let skipped: UnsafeMutableBufferPointer<Int>
    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
        skipped = .allocate(capacity: count)
        skipped.initialize(repeating: 0)
    }
    deinit {
        slots.deinitialize()
        slots.deallocate()
        skipped.deallocate()
    }
    func set(_ k: Int, _ hits: [Int64]?, passedBy: Int) {
        slots[k] = hits
        skipped[k] = passedBy
    }
    subscript(k: Int) -> [Int64]? { slots[k] }
    func passedBy(_ k: Int) -> Int { skipped[k] }
}

/// Where ``TextIndexCache/filters(of:)`` writes each chunk's filter and shape, from two threads: chunk `k`'s
/// words and shape only by the thread given `k`.
///
/// Unchecked because the compiler cannot see that this is safe: each part writes only its own chunks' slots
/// (distinct memory: `k * filterStride` words on, and shape `k`), the buffers outlive `concurrentPerform`,
/// which returns only after every part has ended, ordering the writes before the reads.
/// `TextChunkIndexTests.chunksWithoutTheNeedlesPairsArePassedBy` compares the filters made in two halves with
/// those made on one thread, word for word and shape for shape: a part writing another's slots fails it.
private struct FilterSlots: @unchecked Sendable {
    let filters: UnsafeMutablePointer<UInt64>
    let shapes: UnsafeMutablePointer<(rows: Int, texts: Int)>

    func fill(_ k: Int, from chunk: [UInt8]) {
        shapes[k] = chunk.withUnsafeBytes { bytes -> (rows: Int, texts: Int) in
            guard let (rows, offsets) = TextChunk.textStart(bytes), let base = bytes.baseAddress else { return (0, -1) }
            let texts = base.assumingMemoryBound(to: UInt8.self) + offsets.text
            let filter = filters + k * TextIndexCache.filterStride
            let ended = burrow_pair_filter(
                texts, bytes.count - offsets.text, filter, TextIndexCache.filterWords, filter + TextIndexCache.filterWords)
            return (rows, ended)
        }
    }
}
