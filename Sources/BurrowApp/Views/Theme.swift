import TerminalKit

/// How the outliner looks. Attributes only (no colours) so it reads well on any terminal and under `NO_COLOR`.
enum Theme {
    static let breadcrumbs = Style(attributes: .bold)
    static let placeholder = Style(attributes: .dim)
    static let prompt = Style(attributes: .bold)
    static let hint = Style(attributes: .dim)
    static let done = Style(attributes: .dim)
    static let count = Style(attributes: .dim)
    static let status = Style(attributes: .reverse)
    static let error = Style(attributes: [.reverse, .bold])
    static let helpTitle = Style(attributes: [.bold, .underline])
    static let helpKeys = Style(attributes: .bold)

    /// The smallest screen the outliner draws on; below it, it says so and waits.
    static let minimumSize = Size(width: 24, height: 5)
}
