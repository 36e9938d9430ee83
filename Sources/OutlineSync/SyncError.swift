import Foundation
import ObjectGraph

/// A sync refused or failed, in one line for the user.
public struct SyncError: UserFacingError, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
