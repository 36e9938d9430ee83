/// Little-endian fixed and LEB128 variable-length integers, appended to a byte array.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func varint(_ v: UInt64) {
        var v = v
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// Zig-zag, so small negative numbers stay short.
    mutating func signed(_ v: Int64) { varint(UInt64(bitPattern: (v << 1) ^ (v >> 63))) }

    mutating func fixed(_ v: UInt64) {
        // Eight bytes in one append (a million fingerprints: 8 million appends, each checking capacity).
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
