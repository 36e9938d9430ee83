import Foundation

/// A Swift type that converts to and from a ``Value``, for typed property access.
///
/// ```swift
/// let title: String = item["title"]
/// ```
public protocol AttributeValue {
    /// Converts a stored value; nil when the value has another type.
    init?(value: Value)
    /// The value to store.
    var value: Value { get }
}

extension String: AttributeValue {
    public init?(value: Value) { guard case .string(let s) = value else { return nil }; self = s }
    public var value: Value { .string(self) }
}

extension Int64: AttributeValue {
    public init?(value: Value) { guard case .integer(let i) = value else { return nil }; self = i }
    public var value: Value { .integer(self) }
}

extension Int: AttributeValue {
    public init?(value: Value) { guard case .integer(let i) = value else { return nil }; self = Int(i) }
    public var value: Value { .integer(Int64(self)) }
}

extension Double: AttributeValue {
    public init?(value: Value) {
        switch value {
        case .double(let d): self = d
        case .integer(let i): self = Double(i)
        default: return nil
        }
    }
    public var value: Value { .double(self) }
}

extension Bool: AttributeValue {
    public init?(value: Value) { guard case .bool(let b) = value else { return nil }; self = b }
    public var value: Value { .bool(self) }
}

extension Date: AttributeValue {
    public init?(value: Value) { guard case .date(let d) = value else { return nil }; self = d }
    public var value: Value { .date(self) }
}

extension Data: AttributeValue {
    public init?(value: Value) { guard case .data(let d) = value else { return nil }; self = d }
    public var value: Value { .data(self) }
}

extension UUID: AttributeValue {
    public init?(value: Value) { guard case .uuid(let u) = value else { return nil }; self = u }
    public var value: Value { .uuid(self) }
}

extension Optional: AttributeValue where Wrapped: AttributeValue {
    public init?(value: Value) {
        if case .null = value { self = .none; return }
        guard let w = Wrapped(value: value) else { return nil }
        self = .some(w)
    }
    public var value: Value { self.map(\.value) ?? .null }
}
