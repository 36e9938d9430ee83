/// Little-endian fixed and LEB128 variable-length integers, written into one growing buffer that this
/// writer alone owns. Not an array: an `Array.append` per byte checks uniqueness and capacity each time, and
/// a 100,000-row undo step (a subtree's delete, an import's fingerprints) makes tens of millions of them.
/// Noncopyable, so that the buffer has one owner and is freed exactly once.
struct ByteWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes are written.
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written so far, as an array (a copy: the writer keeps its buffer).
    var bytes: [UInt8] { [UInt8](UnsafeBufferPointer(start: base, count: count)) }

    /// The bytes written so far, without copying them.
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Forgets what is written and keeps the buffer (a scratch writer reused row after row).
    mutating func removeAll() { count = 0 }

    /// Makes room for `n` more bytes, growing the buffer geometrically.
    @inline(__always)
    private mutating func reserve(_ n: Int) {
        if count &+ n > capacity { grow(count + n) }
    }

    private mutating func grow(_ needed: Int) {
        var c = capacity
        while c < needed { c = c &* 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: c)
        bigger.update(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = c
    }

    mutating func byte(_ b: UInt8) {
        reserve(1)
        base[count] = b
        count &+= 1
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let from = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        UnsafeMutableRawPointer(base + count).copyMemory(from: from, byteCount: bytes.count)
        count &+= bytes.count
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        append(UnsafeRawBufferPointer(bytes))
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    mutating func varint(_ v: UInt64) {
        // A 64-bit number takes at most ten bytes: one check for all of them.
        reserve(10)
        var v = v
        while v >= 0x80 {
            base[count] = UInt8(truncatingIfNeeded: v) | 0x80
            count &+= 1
            v >>= 7
        }
        base[count] = UInt8(v)
        count &+= 1
    }

    /// Zig-zag, so small negative numbers stay short.
    mutating func signed(_ v: Int64) { varint(UInt64(bitPattern: (v << 1) ^ (v >> 63))) }

    mutating func fixed(_ v: UInt64) {
        reserve(8)
        UnsafeMutableRawPointer(base + count).storeBytes(of: v.littleEndian, as: UInt64.self)
        count &+= 8
    }
}
