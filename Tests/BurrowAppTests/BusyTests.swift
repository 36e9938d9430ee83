import ObjectGraph
import TerminalKit
import Testing

@testable import Outline

/// A long action (thousands of items deleted or brought back) shows that it runs on the status line while
/// it runs, through the store's heartbeat, and leaves the rest of the screen as it was until it is done.
@Suite struct BusyTests {
    private func harness() throws -> AppHarness {
        let h = try AppHarness(width: 50, height: 6)
        let nodes = [
            OutlineNode("big", children: (0..<20).map { b in OutlineNode("branch \(b)", children: (0..<500).map { OutlineNode("leaf \($0)") }) })
        ]
        try h.outline.perform("Import") { _ = try h.outline.add(nodes, under: try h.outline.root().objectID) }
        try h.outline.append(titles: ["small"], to: try h.outline.root())
        try h.outline.save()
        h.tick()
        return h
    }

    @Test func aLongDeleteAndItsUndoSayTheyRunOnTheStatusLine() throws {
        let h = try harness()
        var seen: [String] = []
        var rest: [String] = []
        h.app.busyDelay = .zero
        h.app.busyInterval = .zero
        h.app.busyDisplay = { text in
            h.terminal.update { h.app.renderBusy(text, into: &$0) }
            seen.append(h.backend.lines.last ?? "")
            // Only the status line changes while the action runs.
            #expect(Array(h.backend.lines.dropLast()) == rest)
        }
        rest = Array(h.backend.lines.dropLast())
        try h.press("dd")
        #expect(seen.count >= 3, "a heartbeat every 4,096 items: \(seen)")
        #expect(seen.first?.hasPrefix("Delete “big”… ⠙ 0.") == true, "\(seen)")
        #expect(h.app.statusText == "Deleted “big” and 10020 sub-items · u: undo")
        #expect(h.outline.context.store.heartbeat == nil, "the action gives the heartbeat back")
        seen = []
        h.draw()
        rest = Array(h.backend.lines.dropLast())
        try h.press("u")
        #expect(seen.first?.hasPrefix("Undoing Delete “big” and 10020 sub-items… ⠙ 0.") == true, "\(seen.first ?? "")")
        #expect(h.app.statusText == "Undid: Delete “big” and 10020 sub-items")
        // Short actions say nothing while they run.
        seen = []
        h.app.busyDelay = .seconds(30)
        try h.press("j <Space>")
        #expect(seen == [])
    }
}
