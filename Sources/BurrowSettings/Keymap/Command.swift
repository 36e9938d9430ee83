/// Everything a key can ask the outliner to do. A command's name is how the config file rebinds it, in the
/// table of the context it belongs to (``KeyContext``).
public enum Command: String, CaseIterable, Sendable {
    case moveDown, moveUp, first, last, pageDown, pageUp, halfPageDown, halfPageUp
    case drillIn, back, backToTop
    case capture, insertBelow, insertAbove, rename, delete
    case moveItemUp, moveItemDown, indent, outdent, cut, paste, toggleDone, duplicate
    /// Tasks: the state through the outline's workflow (none, TODO, …, DONE, none), the priority (none, A, B, C).
    case cycleState, cyclePriority
    case search, nextMatch, previousMatch
    case details, scrollDetailsDown, scrollDetailsUp, pageDetailsDown, pageDetailsUp, editNote
    case openFold, closeFold, toggleFold, openAllFolds, closeAllFolds, hideDone
    case undo, redo, help, quit, suspend, redraw, commandLine
    case movePicker, copy, pasteAbove
    case editNoteInPlace
    case visualRange
    /// Views: the agenda (tasks overdue, today and the next days), the items of the selected item's tag.
    case agenda, tagView
    /// In editors and pickers: do what the editor is for (add, rename, go to the hit, move), or leave it
    /// without what was typed.
    case confirm, cancel
    /// In quick capture, rename and insert: keep what was typed (as Enter does) and leave the editor.
    case finish
    /// In the note editor: leave it saving the note, or leaving it as it was; a line break; its ends.
    case saveNote, discardNote, newLine, noteStart, noteEnd
    /// In a visual range: back to browsing.
    case leaveRange
    /// Editing text, in every editor.
    case cursorLeft, cursorRight, wordLeft, wordRight, rowStart, rowEnd, lineStart, lineEnd
    case deleteBackward, deleteForward, deleteWordBackward, deleteToLineStart, deleteToLineEnd
}
