/// Where an action happened, kept with its undo step so that a program can go back there when the step is
/// undone or redone, whichever process made it: the object whose contents were shown, and the object acted
/// on (to select again).
///
/// ```swift
/// context.setActionPlace(ActionPlace(container: list.objectID, focus: task.objectID))
/// ```
public struct ActionPlace: Sendable, Hashable {
    /// The object whose contents were shown (a list, a folder); nil when not known.
    public var container: ObjectID?
    /// The object the action was about; nil when not known.
    public var focus: ObjectID?

    /// A place: the object whose contents were shown and the object acted on, nil when not known.
    public init(container: ObjectID? = nil, focus: ObjectID? = nil) {
        self.container = container
        self.focus = focus
    }
}
