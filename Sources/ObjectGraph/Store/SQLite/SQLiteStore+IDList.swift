extension SQLiteStore {
    /// `[1,2,3]`: row IDs as the JSON array that `json_each(?)` reads, written digit by digit into one
    /// buffer. `map(String.init).joined` made a string per ID and cost about 300 instructions each, several
    /// times over for a 100,000-item delete (its walk, its rows read aside, its statements).
    static func jsonArray<C: Collection<Int64>>(_ ids: C) -> String {
        // At most 20 characters a number, and a comma or a bracket each.
        String(unsafeUninitializedCapacity: ids.count * 21 + 2) { (out: UnsafeMutableBufferPointer<UInt8>) -> Int in
            var n = 0
            out[n] = UInt8(ascii: "[")
            n += 1
            for (k, id) in ids.enumerated() {
                if k > 0 {
                    out[n] = UInt8(ascii: ",")
                    n += 1
                }
                if id < 0 {
                    out[n] = UInt8(ascii: "-")
                    n += 1
                }
                // The magnitude as unsigned (Int64.min has no positive twin), its digits counted first and
                // then written from the last.
                var v = id.magnitude, length = 1
                while v >= 10 {
                    v /= 10
                    length += 1
                }
                v = id.magnitude
                for i in stride(from: n + length - 1, through: n, by: -1) {
                    out[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
                    v /= 10
                }
                n += length
            }
            out[n] = UInt8(ascii: "]")
            return n + 1
        }
    }
}
