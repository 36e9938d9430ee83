/// A failure talking to, or reading from, a shared outline's server: one line for the user, never the password.
public struct ServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of failure, to `catch` by.
    public enum Code: Equatable, Sendable {
        /// The URL cannot be read.
        case badAddress
        /// No connection: the server is down, unreachable, or refused the login.
        case unreachable
        /// The server's schema is not one this program knows (newer, or not Burrow's).
        case schemaMismatch
        /// The server refused an operation (see the message).
        case rejected
        /// Anything else the server or the connection reported.
        case failed
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
    public var userMessage: String { message }
}
