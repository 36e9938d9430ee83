/// A rectangle of cells: an origin and a size.
///
/// For example: `Rect(x: 0, y: 2, width: 80, height: 20)` is the list area under two header rows.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var origin: Position
    public var size: Size

    public init(origin: Position, size: Size) {
        self.origin = origin
        self.size = size
    }

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.init(origin: Position(x: x, y: y), size: Size(width: width, height: height))
    }

    public init(size: Size) {
        self.init(origin: .zero, size: size)
    }

    public var x: Int { origin.x }
    public var y: Int { origin.y }
    public var width: Int { size.width }
    public var height: Int { size.height }
    public var maxX: Int { origin.x + size.width }
    public var maxY: Int { origin.y + size.height }
    public var isEmpty: Bool { size.width == 0 || size.height == 0 }

    public func contains(_ p: Position) -> Bool {
        p.x >= x && p.x < maxX && p.y >= y && p.y < maxY
    }

    /// The part of this rectangle inside `other` (empty when they do not meet).
    public func intersection(_ other: Rect) -> Rect {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// Row `i` of this rectangle as a rectangle one cell high.
    public func row(_ i: Int) -> Rect {
        Rect(x: x, y: y + i, width: width, height: i >= 0 && i < height ? 1 : 0)
    }

    /// Splits off the first `n` rows: (top, rest).
    public func splitTop(_ n: Int) -> (top: Rect, rest: Rect) {
        let k = min(max(0, n), height)
        return (Rect(x: x, y: y, width: width, height: k), Rect(x: x, y: y + k, width: width, height: height - k))
    }

    /// Splits off the last `n` rows: (rest, bottom).
    public func splitBottom(_ n: Int) -> (rest: Rect, bottom: Rect) {
        let k = min(max(0, n), height)
        return (Rect(x: x, y: y, width: width, height: height - k), Rect(x: x, y: maxY - k, width: width, height: k))
    }

    public var description: String { "\(width)×\(height) at \(origin)" }
}
