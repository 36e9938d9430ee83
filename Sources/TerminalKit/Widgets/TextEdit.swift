/// One editing action on a text field or area, apart from typing: what a key asks the text to do. An app
/// binds keys to these (its keymap); ``standard(for:)`` is the usual terminal table (readline's and the
/// arrows) that ``TextField/handle(_:)`` and ``TextArea/handle(_:)`` use.
///
/// For example: `field.apply(.deleteWordBackward)` is what Ctrl-W does by default.
public enum TextEdit: CaseIterable, Sendable {
    /// One character left or right.
    case left, right
    /// To the start of the word before the cursor, or the end of the one after it.
    case wordLeft, wordRight
    /// To the start or end of the row on screen (in a field, of the text).
    case rowStart, rowEnd
    /// To the start or end of the line (a wrapped line's whole text; in a field, of the text).
    case lineStart, lineEnd
    /// One row up or down on screen, keeping the column (an area only).
    case up, down
    /// A screenful up or down (an area only).
    case pageUp, pageDown
    /// To the start or end of the whole text (an area only; in a field, of the text).
    case textStart, textEnd
    /// Deletes the character before or after the cursor (joining lines at a line's edge).
    case deleteBackward, deleteForward
    /// Deletes the word before the cursor.
    case deleteWordBackward
    /// Deletes from the line's start to the cursor, or from the cursor to the line's end (at the end of a
    /// line in an area: the line break).
    case deleteToLineStart, deleteToLineEnd
    /// Starts a new line (an area only).
    case newLine

    /// The usual terminal keys: arrows, Home/End, Backspace/Delete, readline's Ctrl and Alt keys.
    public static func standard(for key: Key) -> TextEdit? {
        standardKeys.first { $0.keys.contains(key) }?.edit
    }

    /// Every edit with its usual keys, in the order a help screen lists them.
    public static let standardKeys: [(edit: TextEdit, keys: [Key])] = [
        (.left, [.left, .ctrl("b")]),
        (.right, [.right, .ctrl("f")]),
        (.wordLeft, [Key(.left, modifiers: .control), Key(.character("b"), modifiers: .alt)]),
        (.wordRight, [Key(.right, modifiers: .control), Key(.character("f"), modifiers: .alt)]),
        (.rowStart, [.home]),
        (.rowEnd, [.end]),
        (.lineStart, [.ctrl("a")]),
        (.lineEnd, [.ctrl("e")]),
        (.up, [.up, .ctrl("p")]),
        (.down, [.down, .ctrl("n")]),
        (.pageUp, [.pageUp]),
        (.pageDown, [.pageDown]),
        (.textStart, [Key(.home, modifiers: .control)]),
        (.textEnd, [Key(.end, modifiers: .control)]),
        (.deleteBackward, [.backspace, .ctrl("h")]),
        (.deleteForward, [.delete, .ctrl("d")]),
        (.deleteWordBackward, [.ctrl("w"), Key(.backspace, modifiers: .alt)]),
        (.deleteToLineStart, [.ctrl("u")]),
        (.deleteToLineEnd, [.ctrl("k")]),
        (.newLine, [.enter])
    ]
}
