import Foundation

/// A sync refused or failed, in one line for the user.
public struct SyncError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
