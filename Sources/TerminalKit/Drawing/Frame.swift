/// What one frame draws: a buffer the size of the screen and where the cursor goes.
public struct Frame: Sendable {
    public var buffer: Buffer
    /// Where the terminal's cursor is shown (while editing text); nil keeps it hidden.
    public var cursor: Position?

    public init(size: Size) {
        buffer = Buffer(size: size)
        cursor = nil
    }

    public var area: Rect { buffer.area }
    public var size: Size { buffer.size }
}
