import Foundation

/// A stored or in-memory property value, typed like the attribute it belongs to.
///
/// ```swift
/// let v: Value = .string("Milk")
/// ```
public enum Value: Sendable, Hashable, CustomStringConvertible {
    /// No value: the nil of an optional attribute.
    case null
    /// A `.string` attribute's value.
    case string(String)
    /// An `.integer64` attribute's value (a `.double` attribute takes one too).
    case integer(Int64)
    /// A `.double` attribute's value.
    case double(Double)
    /// A `.bool` attribute's value.
    case bool(Bool)
    /// A `.date` attribute's value.
    case date(Date)
    /// A `.binary` attribute's value.
    case data(Data)
    /// A `.uuid` attribute's value.
    case uuid(UUID)

    /// True for `.null`.
    @inlinable public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .null: return "nil"
        case .string(let s): return "\"\(s)\""
        case .integer(let i): return String(i)
        case .double(let d): return String(d)
        case .bool(let b): return String(b)
        case .date(let d): return d.timeIntervalSince1970.description + "s"
        case .data(let d): return "\(d.count) bytes"
        case .uuid(let u): return u.uuidString
        }
    }

    /// The attribute type this value fits, or nil for `.null`.
    public var type: AttributeType? {
        switch self {
        case .null: return nil
        case .string: return .string
        case .integer: return .integer64
        case .double: return .double
        case .bool: return .bool
        case .date: return .date
        case .data: return .binary
        case .uuid: return .uuid
        }
    }

    /// The value as a number, for numeric range checks and comparisons.
    var numeric: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .double(let d): return d
        case .bool(let b): return b ? 1 : 0
        case .date(let d): return d.timeIntervalSince1970
        default: return nil
        }
    }
}

extension Value: Comparable {
    /// Orders values the way SQLite orders the stored columns: NULL first, numbers, then text
    /// (byte-wise, as the BINARY collation), then blobs (byte-wise).
    public static func < (lhs: Value, rhs: Value) -> Bool {
        compare(lhs, rhs) < 0
    }

    /// Three-way comparison matching SQLite's ordering of the stored representation.
    public static func compare(_ lhs: Value, _ rhs: Value) -> Int {
        let lr = lhs.storageRank, rr = rhs.storageRank
        if lr != rr { return lr < rr ? -1 : 1 }
        switch (lhs, rhs) {
        case (.null, .null): return 0
        case (.integer(let a), .integer(let b)): return a == b ? 0 : (a < b ? -1 : 1)
        case (.string(let a), .string(let b)): return compareUTF8(a, b)
        case (.data(let a), .data(let b)): return compareBytes(a, b)
        case (.uuid(let a), .uuid(let b)): return compareBytes(a.bytes, b.bytes)
        default:
            let a = lhs.numeric ?? 0, b = rhs.numeric ?? 0
            return a == b ? 0 : (a < b ? -1 : 1)
        }
    }

    private var storageRank: Int {
        switch self {
        case .null: return 0
        case .integer, .double, .bool, .date: return 1
        case .string: return 2
        case .data, .uuid: return 3
        }
    }

    /// Byte order of two strings' UTF-8, as SQLite's BINARY collation orders TEXT: one `memcmp` on their
    /// contiguous bytes (a results controller compares thousands of keys when a big change comes in).
    private static func compareUTF8(_ a: String, _ b: String) -> Int {
        var a = a, b = b
        // Safe: `memcmp` reads the shorter string's length from both, inside both buffers.
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let n = min(x.count, y.count)
                if n > 0, let p = x.baseAddress, let q = y.baseAddress {
                    let c = memcmp(p, q, n)
                    if c != 0 { return c < 0 ? -1 : 1 }
                }
                return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
            }
        }
    }

    private static func compareBytes<A: Sequence, B: Sequence>(_ a: A, _ b: B) -> Int
    where A.Element == UInt8, B.Element == UInt8 {
        var ia = a.makeIterator(), ib = b.makeIterator()
        while true {
            switch (ia.next(), ib.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?): if x != y { return x < y ? -1 : 1 }
            }
        }
    }
}

extension UUID {
    /// The 16 bytes of the UUID, as stored in a BLOB column.
    var bytes: [UInt8] {
        withUnsafeBytes(of: uuid) { Array($0) }
    }

    init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 16 else { return nil }
        var t: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &t) { $0.copyMemory(from: bytes) }
        self.init(uuid: t)
    }
}

extension Value: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
}
