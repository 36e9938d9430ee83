/// A place in a config file: line and column, both from 1 (a column in Unicode scalars).
public struct SourcePosition: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (a: SourcePosition, b: SourcePosition) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }

    /// `3:7`
    public var description: String { "\(line):\(column)" }
}
