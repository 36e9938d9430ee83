import ObjectGraph

/// Where an undoable action happened, kept beside the context's undo stack: the level (its parent item) and
/// the item to select when the action is undone or redone there.
struct UndoPlace {
    let parentID: ObjectID
    let itemID: ObjectID?
}
