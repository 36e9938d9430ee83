import BurrowSettings
import ObjectGraph
import Outline
import TerminalKit

extension App {
    /// Shows the level holding the item `id`, with it selected: the stack keeps the levels it shares with the
    /// way down to it, and opens the rest.
    func reveal(_ id: ObjectID) {
        let chain: [ItemRow]
        do {
            chain = try outline.ancestors(of: id)
        } catch {
            fail("Cannot show the match", error)
            return
        }
        var keep = 1
        while keep < stack.count, keep - 1 < chain.count, stack[keep].parentID == chain[keep - 1].id { keep += 1 }
        if stack.count > keep {
            stack.removeSubrange(keep...)
            do { try top.resume() } catch { fail("Cannot refresh the level", error) }
        }
        for level in chain.dropFirst(keep - 1) {
            do { try push(level) } catch {
                fail("Cannot open \(quoted(level.title))", error)
                return
            }
        }
        top.select(id: id)
    }
}
