/// The type of an attribute's values.
///
/// ```swift
/// Attribute("due", .date, optional: true)
/// ```
public enum AttributeType: String, Sendable, Hashable, Codable, CaseIterable {
    /// Text, 64-bit integers, doubles, booleans, dates, binary data (`Data`) and UUIDs.
    case string, integer64, double, bool, date, binary, uuid
}
