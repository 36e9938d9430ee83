import ObjectGraph

/// What the task progress drawn on rows was read for: the outline as of one change, and the rows around
/// the screen that have sub-items. The same key means the same figures.
struct ProgressKey: Equatable {
    let generation: Int
    let parents: [ObjectID]
}
