import ObjectGraph
import TerminalKit

/// A note being edited in place in the detail pane (`A`): the text as typed so far, and what saving it needs.
struct NoteDraft {
    var area: TextArea
    let item: ObjectID
    /// The item's title when editing began: what messages name it by, even once it is gone.
    let title: String
    /// The note as stored when editing began: saved over only if it is still that (see `Outline.setNote`).
    let original: String
    /// The level the item was in: where the text goes if the item is deleted meanwhile.
    let parent: ObjectID
    /// The context's generation when the item was last looked at, so a change made elsewhere is told once.
    var checkedGeneration: Int
}
