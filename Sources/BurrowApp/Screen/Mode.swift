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
    /// A panel has the keys (the help overlay, the search line, the move picker, the note editor; see `Panel`).
    case panel(any Panel)
    /// A visual range (`v`) from the row of `anchor` to the selection.
    case visual(anchor: ObjectID)

    enum Placement: Equatable {
        case below(ObjectID)
        /// First among the sub-items of an open item (`o` on it), where they show beneath it.
        case firstChild(ObjectID)
        case above(ObjectID)
        case end
    }

    /// The text being edited in capture, rename or insert: keys and pastes edit it the same way in all three,
    /// and setting it keeps the editor and what it is for. Nil otherwise (a panel keeps its own text).
    var field: TextField? {
        get {
            switch self {
            case .capture(let f), .rename(let f, _), .insert(let f, _): return f
            case .browse, .panel, .visual: return nil
            }
        }
        set {
            guard let f = newValue else { return }
            switch self {
            case .capture: self = .capture(f)
            case .rename(_, let id): self = .rename(f, item: id)
            case .insert(_, let placement): self = .insert(f, placement)
            case .browse, .panel, .visual: break
            }
        }
    }

    /// The open panel, when it is a `P`: `mode.panel(MovePicker.self)`.
    func panel<P: Panel>(_ type: P.Type) -> P? {
        if case .panel(let panel) = self { return panel as? P }
        return nil
    }
}
