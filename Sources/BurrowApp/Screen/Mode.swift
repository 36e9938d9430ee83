import ObjectGraph
import TerminalKit

/// What keys do right now: browse the list, or edit text in one of the editors, or read help, or pick where to move.
enum Mode {
    case browse
    /// The quick-capture line is focused.
    case capture(TextField)
    /// The selected item's title is being edited in place.
    case rename(TextField, item: ObjectID)
    /// A new item is being typed in a row below or above an item (or in an empty level).
    case insert(TextField, Placement)
    /// The search line is focused (`/`); the component holds its text and results.
    case search(Search)
    /// A panel has the middle of the screen and the keys (the help overlay; see `Panel`).
    case panel(any Panel)
    /// The move picker (`M`): a filter and the items matching it, to move the selection under one.
    case movePicker(MovePicker)
    /// A visual range (`v`) from the row of `anchor` to the selection.
    case visual(anchor: ObjectID)
    /// The selected item's note is being edited in the detail pane (`A`).
    case note(NoteDraft)

    enum Placement: Equatable {
        case below(ObjectID)
        case above(ObjectID)
        case end
    }

    /// The text being edited, whichever editor is open: keys and pastes edit it the same way in all four, and
    /// setting it keeps the editor and what it is for. Nil while browsing or reading help.
    var field: TextField? {
        get {
            switch self {
            case .capture(let f), .rename(let f, _), .insert(let f, _): return f
            case .search(let search): return search.field
            case .movePicker(let picker): return picker.field
            case .browse, .panel, .note, .visual: return nil
            }
        }
        set {
            guard let f = newValue else { return }
            switch self {
            case .capture: self = .capture(f)
            case .search(let search): search.field = f
            case .rename(_, let id): self = .rename(f, item: id)
            case .insert(_, let placement): self = .insert(f, placement)
            case .movePicker(let picker): picker.field = f
            case .browse, .panel, .note, .visual: break
            }
        }
    }
}
