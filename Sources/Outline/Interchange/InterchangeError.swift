import ObjectGraph

/// A file that cannot be read as the format it claims to be; nothing was imported.
public struct InterchangeError: UserFacingError, Equatable, Sendable {
    public let format: String
    public let line: Int
    public let column: Int
    public let message: String

    public init(format: String, line: Int, column: Int, message: String) {
        self.format = format
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(format) line \(line), column \(column): \(message)" }
}
