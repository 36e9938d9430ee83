import ObjectGraph
import OutlineServer

/// The server's failures are reported as every other failure the user can read: the server's target knows
/// nothing of the object graph, so the conformance is declared here, where both meet.
extension ServerError: UserFacingError {}
