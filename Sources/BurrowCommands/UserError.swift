import ObjectGraph

/// A failure the user caused (bad path, bad file): one line on stderr, exit status 1.
public struct UserError: UserFacingError {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
