/// An error a person using the program can read: ``userMessage`` is one line saying what failed and, when it
/// helps, what to do (not a debugging dump). A program reports every such error in one place, the same way.
///
/// ```swift
/// do { try run() } catch let e as any UserFacingError { print("error: " + e.userMessage) }
/// ```
public protocol UserFacingError: Error, CustomStringConvertible {
    /// One line for the user; the description unless the type says otherwise.
    var userMessage: String { get }
}

extension UserFacingError {
    public var userMessage: String { description }
}
