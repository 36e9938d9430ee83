import ObjectGraph

/// The task progress drawn on rows, as of one change of the outline, kept per item: the rows around the
/// screen are read when a row shown was not read yet, so a key that scrolls by a row reads nothing most
/// times, and a frame redrawn for a key reads nothing.
struct ProgressCache {
    /// `Outline.generation` when the figures were read: any change since makes them stale.
    let generation: Int
    /// The figures of the items asked for that have tasks below them.
    var figures: [ObjectID: (done: Int, total: Int)] = [:]
    /// Every item asked for, with tasks below or not.
    var asked: Set<ObjectID> = []

    /// Items asked for at most before starting again, so that scrolling through a huge level keeps the
    /// cache small.
    static let limit = 20_000
}
