/// Reads what `ByteWriter` wrote; every read returns nil past the end or on a malformed number.
struct ByteReader {
    let bytes: [UInt8]
    var position = 0

    var atEnd: Bool { position == bytes.count }
    var remaining: Int { bytes.count - position }

    mutating func byte() -> UInt8? {
        guard position < bytes.count else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func take(_ n: Int) -> ArraySlice<UInt8>? {
        guard n >= 0, n <= remaining else { return nil }
        defer { position += n }
        return bytes[position..<(position + n)]
    }

    mutating func varint() -> UInt64? {
        var v: UInt64 = 0
        var shift: UInt64 = 0
        while let b = byte() {
            guard shift < 64 else { return nil }
            v |= UInt64(b & 0x7f) << shift
            if b < 0x80 { return v }
            shift += 7
        }
        return nil
    }

    mutating func signed() -> Int64? {
        varint().map { Int64(bitPattern: ($0 >> 1) ^ (0 &- ($0 & 1))) }
    }

    mutating func fixed() -> UInt64? {
        guard let u = take(8) else { return nil }
        var v: UInt64 = 0
        for (k, b) in u.enumerated() { v |= UInt64(b) << (8 * UInt64(k)) }
        return v
    }
}
