import BurrowSettings
import Foundation
import TerminalKit
import Testing

@testable import BurrowApp

struct KeymapTests {
    static let keymapDoc = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/KEYMAP.md")

    /// docs/KEYMAP.md is generated from the keymap; `BURROW_REGENERATE_DOCS=1` rewrites it (docs/regenerate.sh).
    @Test func keymapDocumentIsCurrent() throws {
        let current = Keymap.default.markdown
        if ProcessInfo.processInfo.environment["BURROW_REGENERATE_DOCS"] == "1" {
            try current.write(to: Self.keymapDoc, atomically: true, encoding: .utf8)
        }
        let stored = try String(contentsOf: Self.keymapDoc, encoding: .utf8)
        #expect(stored == current, "docs/KEYMAP.md is stale: run docs/regenerate.sh")
    }

    @Test func everyCommandHasAKeyAndNoKeyIsBoundTwice() {
        let bound = Set(Keymap.default.bindings.map(\.command))
        #expect(bound == Set(Command.allCases))
        var seen: [[TerminalKit.Key]: Command] = [:]
        for b in Keymap.default.bindings {
            for sequence in b.sequences {
                #expect(seen[sequence] == nil, "\(sequence) is bound to \(seen[sequence].map { "\($0)" } ?? "") and \(b.command)")
                seen[sequence] = b.command
            }
        }
        // A key that starts a sequence (z of zo) is no command of its own: it could never run.
        for sequence in seen.keys where sequence.count > 1 {
            for n in 1..<sequence.count { #expect(seen[Array(sequence.prefix(n))] == nil, "\(sequence) is shadowed") }
        }
    }

    @Test func theHelpOverlayHasItsOwnKeysBoundOnce() throws {
        let help = Keymap.default.help.bindings
        #expect(Set(help.map(\.command)) == [.moveDown, .moveUp, .pageDown, .pageUp])
        var seen: Set<TerminalKit.Key> = []
        for key in help.flatMap(\.keys) { #expect(seen.insert(key).inserted, "\(key) is bound twice in help") }
        #expect(Keymap.default.helpCommand(for: .character(" ")) == .pageDown)
        #expect(Keymap.default.command(for: .character(" ")) == .toggleDone)
        #expect(Keymap.default.helpCommand(for: .character("q")) == nil)
    }

    /// The overlay's keys are data like every other key: another keymap's help keys scroll it, its title says
    /// them, and the default's keys then close it.
    @Test func helpKeysComeFromTheKeymap() throws {
        let keymap = Keymap(
            sections: Keymap.default.sections,
            help: Keymap.Section(
                "In the help overlay",
                [
                    KeyBinding("<C-n>", .moveDown, "Scroll down"),
                    KeyBinding("<C-p>", .moveUp, "Scroll up")
                ]))
        let h = try AppHarness(width: 40, height: 8, keymap: keymap)
        try h.press("?")
        h.expect(
            """
            Burrow
             Keys — Ctrl-N/Ctrl-P scroll, any other…

             Moving
               j ↓                   Move down
               k ↑                   Move up
               g Home                First item
                                          Esc: close
            """)
        try h.press("<C-n> <C-n>")
        #expect(h.backend.lines[1] == " Moving")
        try h.press("<C-p>")
        #expect(h.backend.lines[1] == "")
        try h.press("j")
        #expect(h.backend.lines[2] == "  a: add an item · ?: help")
        try h.press("?")
        #expect(h.backend.lines[1].hasPrefix(" Keys"))
        try h.press("<Space>")
        #expect(h.backend.lines[2] == "  a: add an item · ?: help")
    }

    @Test func keysOfTheSharedConventionsAreBound() throws {
        let map = Keymap.default
        let expected: [(String, Command)] = [
            ("j", .moveDown), ("<Down>", .moveDown), ("k", .moveUp), ("l", .drillIn), ("<Enter>", .drillIn),
            ("h", .back), ("<Esc>", .back), ("<BS>", .back), ("~", .backToTop), ("a", .capture), (":", .capture),
            ("o", .insertBelow), ("O", .insertAbove), ("e", .rename), ("<F2>", .rename), ("d", .delete),
            ("<Del>", .delete), ("K", .moveItemUp), ("<S-Up>", .moveItemUp), ("<A-Down>", .moveItemDown),
            (">", .indent), ("<Tab>", .indent), ("<S-Tab>", .outdent), ("m", .cut), ("<Space>", .toggleDone),
            ("u", .undo), ("<C-z>", .undo), ("<C-r>", .redo), ("<C-y>", .redo), ("?", .help), ("q", .quit),
            ("<C-c>", .quit)
        ]
        for (notation, command) in expected {
            #expect(map.command(for: try TerminalKit.Key.parse(notation)) == command, "\(notation)")
        }
    }
}
