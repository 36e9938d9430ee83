/// The type of an attribute's values.
public enum AttributeType: String, Sendable, Hashable, Codable, CaseIterable {
    case string, integer64, double, bool, date, binary, uuid
}
