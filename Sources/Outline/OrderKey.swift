/// Sibling order as fractional keys: strings that sort in the order the user gave, where a key can always
/// be made between any two others. Inserting, deleting or moving one item writes that item's row only,
/// whatever the number of siblings.
///
/// A key is an "integer part" (a head letter giving its length, then base-62 digits) followed by an
/// optional fraction; appending increments the integer, so keys stay a few characters long.
/// ```swift
/// let first = OrderKey.between(nil, nil)          // "a0"
/// let second = OrderKey.between(first, nil)       // "a1"
/// let middle = OrderKey.between(first, second)    // "a0V"
/// ```
public enum OrderKey {
    static let digits: [UInt8] = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    static let zero = digits[0]
    static let last = digits[61]
    static let smallestInteger: [UInt8] = [UInt8(ascii: "A")] + Array(repeating: digits[0], count: 26)
    private static let digitValue: [Int8] = {
        var t = [Int8](repeating: -1, count: 256)
        for (i, d) in digits.enumerated() { t[Int(d)] = Int8(i) }
        return t
    }()

    /// A key strictly between `a` and `b` (nil meaning the start or the end). Requires `a < b` when both
    /// are given; an invalid neighbour is treated as absent.
    public static func between(_ a: String?, _ b: String?) -> String {
        let ka = a.flatMap { isValid($0) ? Array($0.utf8) : nil }
        var kb = b.flatMap { isValid($0) ? Array($0.utf8) : nil }
        if let x = ka, let y = kb, !(x.lexicographicallyPrecedes(y)) { kb = nil }
        return String(decoding: between(ka, kb), as: UTF8.self)
    }

    /// `count` increasing keys after `a`, for appending many items at once.
    public static func keys(after a: String?, count: Int) -> [String] {
        var out: [String] = []
        out.reserveCapacity(count)
        var k = a.flatMap { isValid($0) ? Array($0.utf8) : nil }
        for _ in 0..<count {
            let next = between(k, nil)
            out.append(String(decoding: next, as: UTF8.self))
            k = next
        }
        return out
    }

    /// `count` increasing keys strictly between `a` and `b` (nil meaning the start or the end; `a < b`), for
    /// placing many items in one gap. Bisected, so the keys grow by a character for every 64-fold of
    /// `count` rather than one for every few items, as keys made one after another in a gap would.
    public static func keys(between a: String?, and b: String?, count: Int) -> [String] {
        guard count > 0 else { return [] }
        guard b != nil else { return keys(after: a, count: count) }
        var out: [String] = []
        out.reserveCapacity(count)
        bisect(a, b, count, into: &out)
        return out
    }

    /// The middle key, then each half: recursion as deep as log2(count).
    private static func bisect(_ a: String?, _ b: String?, _ count: Int, into out: inout [String]) {
        guard count > 0 else { return }
        let middle = between(a, b)
        let left = (count - 1) / 2
        bisect(a, middle, left, into: &out)
        out.append(middle)
        bisect(middle, b, count - 1 - left, into: &out)
    }

    /// True for a well-formed key.
    public static func isValid(_ key: String) -> Bool {
        let k = Array(key.utf8)
        guard let head = k.first, let n = integerLength(head), k.count >= n else { return false }
        guard k.allSatisfy({ digitValue[Int($0)] >= 0 }) else { return false }
        if k.count > n && k.last == zero { return false }
        return k != smallestInteger
    }

    private static func integerLength(_ head: UInt8) -> Int? {
        if head >= UInt8(ascii: "a") && head <= UInt8(ascii: "z") { return Int(head - UInt8(ascii: "a")) + 2 }
        if head >= UInt8(ascii: "A") && head <= UInt8(ascii: "Z") { return Int(UInt8(ascii: "Z") - head) + 2 }
        return nil
    }

    private static func between(_ a: [UInt8]?, _ b: [UInt8]?) -> [UInt8] {
        guard let a else {
            guard let b else { return [UInt8(ascii: "a"), zero] }
            let ib = Array(b.prefix(integerLength(b[0])!)), fb = Array(b.dropFirst(ib.count))
            if ib == smallestInteger { return ib + midpoint([], fb) }
            if ib.count < b.count { return ib }
            return decrement(ib) ?? ib + midpoint([], fb)
        }
        let ia = Array(a.prefix(integerLength(a[0])!)), fa = Array(a.dropFirst(ia.count))
        guard let b else {
            return increment(ia) ?? ia + midpoint(fa, nil)
        }
        let ib = Array(b.prefix(integerLength(b[0])!)), fb = Array(b.dropFirst(ib.count))
        if ia == ib { return ia + midpoint(fa, fb) }
        if let i = increment(ia), i.lexicographicallyPrecedes(b) { return i }
        return ia + midpoint(fa, nil)
    }

    /// A fraction strictly between fractions `a` and `b` (nil: 1), neither ending in the zero digit.
    private static func midpoint(_ a: [UInt8], _ b: [UInt8]?) -> [UInt8] {
        if let b {
            var n = 0
            while n < b.count && (n < a.count ? a[n] : zero) == b[n] { n += 1 }
            if n > 0 { return Array(b.prefix(n)) + midpoint(Array(a.dropFirst(n)), Array(b.dropFirst(n))) }
        }
        let da = a.isEmpty ? 0 : Int(digitValue[Int(a[0])])
        let db = b.map { $0.isEmpty ? 62 : Int(digitValue[Int($0[0])]) } ?? 62
        if db - da > 1 { return [digits[(da + db + 1) / 2]] }
        if let b, b.count > 1 { return [b[0]] }
        return [digits[da]] + midpoint(Array(a.dropFirst()), nil)
    }

    private static func increment(_ x: [UInt8]) -> [UInt8]? {
        var digs = Array(x.dropFirst())
        var i = digs.count - 1
        while i >= 0 {
            let d = Int(digitValue[Int(digs[i])]) + 1
            if d < 62 {
                digs[i] = digits[d]
                return [x[0]] + digs
            }
            digs[i] = zero
            i -= 1
        }
        let head = x[0]
        if head == UInt8(ascii: "Z") { return [UInt8(ascii: "a"), zero] }
        if head == UInt8(ascii: "z") { return nil }
        let h = head + 1
        if h > UInt8(ascii: "a") { digs.append(zero) } else { digs.removeLast() }
        return [h] + digs
    }

    private static func decrement(_ x: [UInt8]) -> [UInt8]? {
        var digs = Array(x.dropFirst())
        var i = digs.count - 1
        while i >= 0 {
            let d = Int(digitValue[Int(digs[i])]) - 1
            if d >= 0 {
                digs[i] = digits[d]
                return [x[0]] + digs
            }
            digs[i] = last
            i -= 1
        }
        let head = x[0]
        if head == UInt8(ascii: "a") { return [UInt8(ascii: "Z"), last] }
        if head == UInt8(ascii: "A") { return nil }
        let h = head - 1
        if h < UInt8(ascii: "Z") { digs.append(last) } else { digs.removeLast() }
        return [h] + digs
    }
}
