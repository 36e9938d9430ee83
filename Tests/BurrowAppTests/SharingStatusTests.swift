import Synchronization
import TerminalKit
import Testing

@testable import BurrowApp

/// A shared outline's sync on the status line: its few words on the right, before the rest ("offline · 2
/// pending"), changing as the sync's state changes with no key pressed (the next frame shows it); what the
/// server refused on the left, the newest of several, at the next tick; hostile bytes in a message shown
/// as visible text; an outline not shared shows nothing.
struct SharingStatusTests {
    final class FakeSharing: SharingIndicator {
        private let state = Mutex<(label: String?, messages: [String])>((nil, []))
        var label: String? { state.withLock { $0.label } }
        func takeMessages() -> [String] {
            state.withLock { s in
                defer { s.messages = [] }
                return s.messages
            }
        }
        func set(_ label: String?, messages: [String] = []) { state.withLock { $0 = (label, $0.messages + messages) } }
    }

    @Test func theSyncsStateAndMessagesAreOnTheStatusLine() throws {
        let h = try AppHarness(width: 44, height: 5)
        try h.press("a")
        h.type("milk")
        try h.press("<Enter> <Esc>")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] milk

            Added “milk”                         ?: help
            """)
        let sharing = FakeSharing()
        sharing.set("connecting")
        h.app.sharing = sharing
        h.draw()
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] milk

            Added “milk”            connecting · ?: help
            """)
        sharing.set("offline · 2 pending")
        h.draw()
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] milk

            Added “milk”   offline · 2 pending · ?: help
            """)
        sharing.set("synced", messages: ["Add “x”: its parent was deleted", "Move “y”: it would go\u{1b}[2J inside itself"])
        h.tick()
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] milk

            Move “y”: it would go^[[2J… synced · ?: help
            """)
        // Taken once: the next tick leaves the line as it is, and a key clears it.
        h.tick()
        try h.press("j")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] milk

                                        synced · ?: help
            """)
    }
}
