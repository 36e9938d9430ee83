import TerminalKit

/// Something wrong in a config file: where (absent when it is the whole file, such as one that cannot be read)
/// and what, in words for the user. Text quoted from the file is made visible (`Sanitizer`), so a message is
/// safe to print or draw.
///
/// For example: `3:11: unknown command “mveDown”`.
public struct ConfigProblem: Equatable, Sendable, CustomStringConvertible {
    public let position: SourcePosition?
    public let message: String

    public init(_ message: String, at position: SourcePosition? = nil) {
        self.position = position
        self.message = message
    }

    /// `3:11: message`, or the message alone for the whole file.
    public var description: String {
        position.map { "\($0): \(message)" } ?? message
    }

    /// As `burrow config check` prints it: `PATH:3:11: message` (`PATH: message` for the whole file).
    public func located(in path: String) -> String {
        "\(Sanitizer.visible(path)):\(position.map { "\($0):" } ?? "") \(message)"
    }
}
