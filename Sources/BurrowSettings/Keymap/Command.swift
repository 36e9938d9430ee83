/// Everything a key can ask the outliner to do.
public enum Command: String, CaseIterable, Sendable {
    case moveDown, moveUp, first, last, pageDown, pageUp, halfPageDown, halfPageUp
    case drillIn, back, backToTop
    case capture, insertBelow, insertAbove, rename, delete
    case moveItemUp, moveItemDown, indent, outdent, cut, paste, toggleDone, duplicate
    case search, nextMatch, previousMatch
    case details, scrollDetailsDown, scrollDetailsUp, editNote
    case openFold, closeFold, toggleFold, openAllFolds, closeAllFolds, hideDone
    case undo, redo, help, quit
    case movePicker, copy, pasteAbove
    case editNoteInPlace
    case visualRange
}
