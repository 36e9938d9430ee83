/// A mouse event at a cell.
public struct MouseEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// A button was pressed (1 left, 2 middle, 3 right).
        case press(button: Int)
        case wheelUp
        case wheelDown
    }

    public var kind: Kind
    public var position: Position
    public var modifiers: Key.Modifiers

    public init(kind: Kind, position: Position, modifiers: Key.Modifiers = []) {
        self.kind = kind
        self.position = position
        self.modifiers = modifiers
    }
}
