/// A cell's place on the screen: column `x` and row `y`, both from 0 at the top left.
///
/// For example: `Position(x: 0, y: 1)` is the first cell of the second row.
public struct Position: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int

    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    public static let zero = Position(x: 0, y: 0)

    public var description: String { "(\(x), \(y))" }
}
