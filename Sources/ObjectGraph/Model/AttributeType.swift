/// The type of an attribute's values, and how it is stored in SQLite.
public enum AttributeType: String, Sendable, Hashable, Codable, CaseIterable {
    case string, integer64, double, bool, date, binary, uuid

    /// The SQLite column type used for this attribute.
    var sqlType: String {
        switch self {
        case .string: return "TEXT"
        case .integer64, .bool: return "INTEGER"
        case .double, .date: return "REAL"
        case .binary, .uuid: return "BLOB"
        }
    }
}
