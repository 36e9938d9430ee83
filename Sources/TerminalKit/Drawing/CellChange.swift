/// A cell that differs from the previous frame, as sent to a backend.
public struct CellChange: Hashable, Sendable {
    public var position: Position
    public var cell: Cell

    public init(position: Position, cell: Cell) {
        self.position = position
        self.cell = cell
    }
}
