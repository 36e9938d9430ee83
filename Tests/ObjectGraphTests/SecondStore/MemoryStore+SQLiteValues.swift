import Foundation

@testable import ObjectGraph

/// Values kept as SQLite keeps them and read back as `SQLiteStore` reads them: not something the protocol
/// asks for, but what lets the tests hold both store types to the same values, order and counts.
extension MemoryStore {
    /// `value` as a column of `type` stores it: SQLite's storage class (what `RawStatement.bind` binds),
    /// then the column's affinity (TEXT, INTEGER, REAL or BLOB; see `Schema.columnType`).
    static func stored(_ value: Value, as type: AttributeType) -> Value {
        let bound: Value
        switch value {
        case .bool(let b): bound = .integer(b ? 1 : 0)
        case .date(let d): bound = .double(d.timeIntervalSince1970)
        case .uuid(let u): bound = .data(Data(u.bytes))
        default: bound = value
        }
        switch (type, bound) {
        case (.string, .integer(let i)): return .string(String(i))
        case (.string, .double(let d)): return .string(String(d))
        case (.integer64, .double(let d)), (.bool, .double(let d)):
            // INTEGER affinity keeps a REAL that is a whole number as an INTEGER.
            if d == d.rounded(), let i = Int64(exactly: d) { return .integer(i) }
            return bound
        case (.integer64, .string(let s)), (.bool, .string(let s)):
            if let i = Int64(s) { return .integer(i) }
            if let d = Double(s), d.isFinite { return stored(.double(d), as: type) }
            return bound
        case (.double, .integer(let i)), (.date, .integer(let i)): return .double(Double(i))
        case (.double, .string(let s)), (.date, .string(let s)):
            if let d = Double(s), d.isFinite { return .double(d) }
            return bound
        default: return bound
        }
    }

    /// A stored value read as `type`, as `RawStatement.value(at:as:)` reads a column (NULL stays `.null`).
    static func read(_ v: Value, as type: AttributeType) -> Value {
        if v.isNull { return .null }
        switch type {
        case .string:
            switch v {
            case .string: return v
            case .integer(let i): return .string(String(i))
            case .double(let d): return .string(String(d))
            case .data(let d): return .string(String(decoding: d, as: UTF8.self))
            default: return v
            }
        case .integer64: return .integer(int64(v))
        case .bool: return .bool(int64(v) != 0)
        case .double: return .double(double(v))
        case .date: return .date(Date(timeIntervalSince1970: double(v)))
        case .binary, .uuid:
            let bytes: Data
            switch v {
            case .data(let d): bytes = d
            case .string(let s): bytes = Data(s.utf8)
            case .integer(let i): bytes = Data(String(i).utf8)
            case .double(let d): bytes = Data(String(d).utf8)
            default: bytes = Data()
            }
            if type == .uuid, bytes.count == 16, let u = bytes.withUnsafeBytes({ UUID(bytes: $0) }) { return .uuid(u) }
            return .data(bytes)
        }
    }

    static func int64(_ v: Value) -> Int64 {
        switch v {
        case .integer(let i): return i
        case .double(let d): return d.isNaN ? 0 : d >= 9.2e18 ? .max : d <= -9.2e18 ? .min : Int64(d)
        case .string(let s): return Int64(s) ?? Double(s).map { int64(.double($0)) } ?? 0
        case .data(let d): return int64(.string(String(decoding: d, as: UTF8.self)))
        default: return 0
        }
    }

    static func double(_ v: Value) -> Double {
        switch v {
        case .integer(let i): return Double(i)
        case .double(let d): return d
        case .string(let s): return Double(s) ?? 0
        case .data(let d): return Double(String(decoding: d, as: UTF8.self)) ?? 0
        default: return 0
        }
    }

    /// A stored row with the slots of `layout` read (typed); the others hold their defaults.
    func decode(_ row: [Value], _ entity: EntityDescription, _ layout: RowLayout) -> [Value] {
        var out: [Value] = []
        out.reserveCapacity(row.count)
        for slot in 0..<layout.columnOfSlot.count {
            out.append(layout.columnOfSlot[slot] > 0 ? Self.read(row[slot], as: entity.typeOfSlot[slot]) : entity.defaults[slot])
        }
        return out
    }
}
