import BurrowSettings
import ObjectGraph
import Outline

/// Hiding done items (`H`): in every level or none, stored with the outline; and how many the level on top
/// leaves out (counted when the outline or the level changed, not per frame), for the status line.
final class DoneFilter: Component {
    private(set) var hidesDone = false
    /// How many done items the level on top leaves out.
    private(set) var hiddenCount = 0
    /// When that was counted: the context's generation and the level.
    private var countedAt: (generation: Int, level: ObjectID?) = (-1, nil)

    let commands: Set<Command> = [.hideDone]

    /// `H`: hides or shows done items in every level, and stores the choice with the outline.
    func run(_ command: Command, in app: App) {
        let hides = !hidesDone
        do {
            try app.outline.setHidesDone(hides)
        } catch {
            app.fail("Cannot \(hides ? "hide" : "show") done items", error)
            return
        }
        apply(hides, in: app)
        app.status = .info(hides ? "Done items hidden · \(app.keymap.label(for: .hideDone) ?? "H"): show them" : "Done items shown")
    }

    /// Hides or shows done items in every level of the app's stack (rebuilt, each keeping its place).
    func apply(_ hides: Bool, in app: App) {
        guard hides != hidesDone else { return }
        hidesDone = hides
        countedAt = (-1, nil)
        app.rebuildLevels()
    }

    func settle(in app: App) {
        guard hidesDone else {
            hiddenCount = 0
            return
        }
        let now = (app.outline.generation, Optional(app.top.parentID))
        guard now != countedAt else { return }
        countedAt = now
        do {
            hiddenCount = try app.outline.doneCount(under: app.top.openLists)
        } catch {
            hiddenCount = 0
            app.fail("Cannot count the done items", error)
        }
    }
}
