import ObjectGraph
import TerminalKit

/// What keys do right now: browse the list, or edit text in one of the editors, or read help.
enum Mode {
    case browse
    /// The quick-capture line is focused.
    case capture(TextField)
    /// The selected item's title is being edited in place.
    case rename(TextField, item: ObjectID)
    /// A new item is being typed in a row below or above an item (or in an empty level).
    case insert(TextField, Placement)
    /// The search line is focused (`/`).
    case search(TextField)
    /// The help overlay, scrolled to `offset`.
    case help(offset: Int)

    enum Placement: Equatable {
        case below(ObjectID)
        case above(ObjectID)
        case end
    }
}
