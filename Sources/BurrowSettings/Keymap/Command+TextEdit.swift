import TerminalKit

extension Command {
    /// What the command does to the text being edited while `context` has the keys, if it edits text: the
    /// text keys everywhere; in the note editor also the moving keys (by rows) and its own.
    public func textEdit(in context: KeyContext) -> TextEdit? {
        switch self {
        case .cursorLeft: .left
        case .cursorRight: .right
        case .wordLeft: .wordLeft
        case .wordRight: .wordRight
        case .rowStart: .rowStart
        case .rowEnd: .rowEnd
        case .lineStart: .lineStart
        case .lineEnd: .lineEnd
        case .deleteBackward: .deleteBackward
        case .deleteForward: .deleteForward
        case .deleteWordBackward: .deleteWordBackward
        case .deleteToLineStart: .deleteToLineStart
        case .deleteToLineEnd: .deleteToLineEnd
        case .moveUp where context == .note: .up
        case .moveDown where context == .note: .down
        case .pageUp where context == .note: .pageUp
        case .pageDown where context == .note: .pageDown
        case .noteStart: .textStart
        case .noteEnd: .textEnd
        case .newLine: .newLine
        default: nil
        }
    }
}
