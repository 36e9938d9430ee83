import BurrowSettings
import Foundation
import ObjectGraph
import Outline
import TerminalKit

/// The detail pane (`I`): shown or not, what it shows of the selected item (read when the selection or the
/// outline changed, never while drawing: counting what is below an item reads its whole subtree), and how far
/// its text is scrolled (`]`, `[`).
final class DetailsPane: Component {
    private(set) var isShown = false
    /// The selected item's details as last read; nil while hidden or with nothing selected.
    private(set) var details: ItemDetails?
    /// How far the text is scrolled.
    private(set) var scroll = 0
    /// The context's generation when `details` were read: any save or change taken in moves it on.
    private var generation = -1

    let commands: Set<Command> = [.details, .scrollDetailsDown, .scrollDetailsUp, .pageDetailsDown, .pageDetailsUp]

    func run(_ command: Command, in app: App) {
        switch command {
        case .details:
            isShown.toggle()
            scroll = 0
            generation = -1
            if isShown && app.layout.details == nil {
                app.status = .info("No room for the details here: make the terminal taller")
            }
        case .scrollDetailsDown, .scrollDetailsUp, .pageDetailsDown, .pageDetailsUp:
            guard isShown, let area = app.layout.details else {
                app.status = .info("The details are hidden · \(app.keymap.label(for: .details) ?? "I"): show them")
                return
            }
            // A page is the pane's text rows less one, so a line of the last page stays for context.
            let page = max(1, area.height - 2)
            let step = command == .scrollDetailsDown || command == .scrollDetailsUp ? 1 : page
            scroll = max(0, scroll + (command == .scrollDetailsDown || command == .pageDetailsDown ? step : -step))
        default: break
        }
    }

    /// Shows the pane (the note editor opens in it).
    func show() { isShown = true }

    func settle(in app: App) {
        guard isShown else {
            details = nil
            return
        }
        let id = app.top.selectedRow?.id
        let now = app.outline.generation
        if now != generation || details?.row.id != id {
            generation = now
            if details?.row.id != id { scroll = 0 }
            do {
                details = try id.flatMap { try app.outline.details(of: $0) }
            } catch {
                details = nil
                app.fail("Cannot read the details", error)
            }
        }
        // The last line of the text stays in view however far `]` went, and whatever the height now. (Not
        // while the pane holds the note editor: wrapping the whole note on every key would cost its length.)
        if app.mode.panel(NoteDraft.self) != nil { return }
        if let area = app.layout.details, let details {
            scroll = min(scroll, max(0, DetailView(details: details, timeZone: app.timeZone).lines(width: area.width).count - (area.height - 1)))
        }
    }

    /// Draws the pane into `area`.
    func render(into buffer: inout Buffer, area: Rect, theme: Theme, timeZone: TimeZone?) {
        DetailView(details: details, timeZone: timeZone, theme: theme).render(into: &buffer, area: area, offset: scroll)
    }
}
