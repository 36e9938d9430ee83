/// What deleted the levels that disappear from the stack, as the message says it: “Dairy” was deleted by undo.
enum DeletionCause: String {
    /// Another process, or another window on the same store.
    case elsewhere = "elsewhere"
    case undo = "by undo"
    case redo = "by redo"
}
