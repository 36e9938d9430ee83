import BurrowSettings
import TerminalKit

/// Where each part of the screen goes at one size, worked out once per frame: render draws into these
/// rectangles and clicks and page keys read the same ones, so what is drawn and what is hit cannot disagree.
///
/// For example, at 40×8: breadcrumbs on row 0, the capture line on row 1, the list on rows 2–6, the status
/// line on row 7.
struct Layout: Equatable {
    /// The smallest screen the outliner draws on; below it, it says so and waits.
    static let minimumSize = Size(width: 24, height: 5)

    let size: Size
    let breadcrumbs: Rect
    /// The quick-capture line, which is also the search line.
    let capture: Rect
    let list: Rect
    /// The detail pane under the list, when it is shown and there is room for it (8 rows of list and pane
    /// together): the lower half.
    let details: Rect?
    let status: Rect

    init(size: Size, details showsDetails: Bool = false) {
        self.size = size
        let (header, rest) = Rect(size: size).splitTop(2)
        let (body, footer) = rest.splitBottom(1)
        breadcrumbs = header.row(0)
        capture = header.row(1)
        if showsDetails && body.height >= 8 {
            let (top, bottom) = body.splitBottom(body.height / 2)
            list = top
            details = bottom
        } else {
            list = body
            details = nil
        }
        status = footer
    }

    /// Below `Layout.minimumSize` the outline is not drawn (the areas above may then be empty).
    var isTooSmall: Bool {
        size.width < Layout.minimumSize.width || size.height < Layout.minimumSize.height
    }

    /// The help overlay covers the capture line and the list.
    var help: Rect { Rect(x: list.x, y: capture.y, width: list.width, height: capture.height + list.height) }

    /// The capture or search line's text, after its prompt.
    var captureField: Rect { Rect(x: capture.x + 2, y: capture.y, width: max(0, capture.width - 2), height: capture.height) }

    /// The text of an editor in a list row (rename, insert), after the done box.
    static func rowField(_ row: Rect) -> Rect { Rect(x: row.x + 5, y: row.y, width: max(0, row.width - 5), height: row.height) }
}
