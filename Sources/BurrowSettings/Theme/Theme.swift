import TerminalKit

/// How the outliner looks: one `Style` per role. The standard theme is attributes only (no colours), so it reads
/// well on any terminal and under `NO_COLOR`; a config file can give roles colours (`Theme.Role`).
///
/// For example: `Theme.standard.colored(.done, foreground: .palette(8))`.
public struct Theme: Equatable, Sendable {
    public var breadcrumbs = Style(attributes: .bold)
    public var placeholder = Style(attributes: .dim)
    public var prompt = Style(attributes: .bold)
    public var hint = Style(attributes: .dim)
    public var done = Style(attributes: .dim)
    public var count = Style(attributes: .dim)
    public var status = Style(attributes: .reverse)
    public var error = Style(attributes: [.reverse, .bold])
    public var helpTitle = Style(attributes: [.bold, .underline])
    public var helpKeys = Style(attributes: .bold)
    /// Laid over the selected row after it is drawn: its attributes are added, its colours (when not the
    /// default) replace the row's.
    public var selection = Style(attributes: .reverse)
    /// The text a search matched, in its results.
    public var match = Style(attributes: [.bold, .underline])
    /// A task's state and priority before its title.
    public var state = Style(attributes: .bold)
    /// The date of a task that is not done and was due or planned before today.
    public var overdue = Style(attributes: [.bold, .underline])

    /// Today's look: attributes only.
    public static let standard = Theme()

    /// What the list applies to the selected row's cells.
    public var selectedRow: (inout Style) -> Void {
        let selection = self.selection
        return { style in
            style.attributes.formUnion(selection.attributes)
            if selection.foreground != .default { style.foreground = selection.foreground }
            if selection.background != .default { style.background = selection.background }
        }
    }
}
