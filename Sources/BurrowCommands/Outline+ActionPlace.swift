import ObjectGraph
import Outline

extension Outline {
    /// Records the item a command acts on, and the level it is in, with the command's undo step: undoing it
    /// in the outliner shows that level with the item selected.
    func recordPlace(of item: Item) {
        context.setActionPlace(ActionPlace(container: item.parent?.objectID, focus: item.objectID))
    }
}
