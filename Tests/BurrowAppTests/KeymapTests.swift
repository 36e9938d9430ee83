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
        let bound = Set(Keymap.default.sections.flatMap(\.bindings).map(\.command))
        #expect(bound == Set(Command.allCases))
        // Where a key is read: each context with the others it reads (a range's own keys shadow the list's by design).
        for group in KeyContext.allCases.map({ $0 == .visual ? [$0] : $0.chain }) {
            var seen: [[TerminalKit.Key]: Command] = [:]
            for b in group.flatMap({ Keymap.default.bindings(in: $0) }) {
                for sequence in b.sequences {
                    #expect(seen[sequence] == nil, "\(group): \(sequence) is bound to \(seen[sequence].map { "\($0)" } ?? "") and \(b.command)")
                    seen[sequence] = b.command
                }
            }
            // A key that starts a sequence (z of zo) is no command of its own: it could never run.
            for sequence in seen.keys where sequence.count > 1 {
                #expect(group == [.browse], "only the list waits for a second key")
                for n in 1..<sequence.count { #expect(seen[Array(sequence.prefix(n))] == nil, "\(sequence) is shadowed") }
            }
        }
        // No editor binds a key that types: it could not be typed.
        for context in [KeyContext.editor, .search, .picker, .note, .text] {
            for b in Keymap.default.bindings(in: context) {
                #expect(b.keys.allSatisfy { $0.text == nil }, "\(context): \(b.labels) types")
            }
        }
    }

    /// The editors' default text keys are the usual terminal keys, as TerminalKit's widgets know them.
    @Test func theTextKeysAreTheUsualOnes() {
        for (edit, keys) in TextEdit.standardKeys {
            for key in keys {
                let context: KeyContext = [.up, .down, .pageUp, .pageDown, .textStart, .textEnd, .newLine].contains(edit) ? .note : .text
                let command = Keymap.default.command(for: key, in: context == .text ? .editor : .note)
                #expect(command?.textEdit(in: .note) == edit, "\(key) does \(String(describing: command)) in the editors, not \(edit)")
            }
        }
    }

    @Test func theHelpOverlayHasItsOwnKeysBoundOnce() throws {
        let help = Keymap.default.bindings(in: .help)
        #expect(Set(help.map(\.command)) == [.moveDown, .moveUp, .pageDown, .pageUp])
        var seen: Set<TerminalKit.Key> = []
        for key in help.flatMap(\.keys) { #expect(seen.insert(key).inserted, "\(key) is bound twice in help") }
        #expect(Keymap.default.command(for: .character(" "), in: .help) == .pageDown)
        #expect(Keymap.default.command(for: .character(" ")) == .toggleDone)
        #expect(Keymap.default.command(for: .character("q"), in: .help) == nil)
    }

    /// The overlay's keys are data like every other key: another keymap's help keys scroll it, its title says
    /// them, and the default's keys then close it.
    @Test func helpKeysComeFromTheKeymap() throws {
        let keymap = Keymap(
            sections: Keymap.default.sections.filter { $0.context != .help } + [
                Keymap.Section(
                    "In the help overlay", .help,
                    [
                        KeyBinding("<C-n>", .moveDown, "Scroll down"),
                        KeyBinding("<C-p>", .moveUp, "Scroll up")
                    ])
            ])
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
            ("h", .back), ("<Esc>", .back), ("<BS>", .back), ("~", .backToTop), ("a", .capture), (":", .commandLine),
            ("o", .insertBelow), ("O", .insertAbove), ("e", .rename), ("<F2>", .rename), ("x", .delete),
            ("<Del>", .delete), ("K", .moveItemUp), ("<S-Up>", .moveItemUp), ("<A-Down>", .moveItemDown),
            (">", .indent), ("<Tab>", .indent), ("<S-Tab>", .outdent), ("m", .cut), ("<Space>", .toggleDone),
            ("u", .undo), ("<C-z>", .suspend), ("<C-l>", .redraw), ("<C-r>", .redo), ("<C-y>", .redo), ("?", .help), ("q", .quit),
            ("<C-c>", .quit)
        ]
        for (notation, command) in expected {
            #expect(map.command(for: try TerminalKit.Key.parse(notation)) == command, "\(notation)")
        }
    }

    /// Commands hash and compare by case (not by name): every case equals itself alone, and a set or a table
    /// keyed by commands finds each under its own case.
    @Test func commandsHashAndCompareByCase() {
        let all = Command.allCases
        #expect(MemoryLayout<Command>.size == 1)
        #expect(Set(all).count == all.count)
        for (i, a) in all.enumerated() {
            for (j, b) in all.enumerated() { #expect((a == b) == (i == j), "\(a) \(b)") }
            #expect(Command(rawValue: a.rawValue) == a)
        }
        let table = Dictionary(uniqueKeysWithValues: all.map { ($0, $0.rawValue) })
        #expect(all.allSatisfy { table[$0] == $0.rawValue })
        var h1 = Hasher(), h2 = Hasher()
        h1.combine(Command.moveDown)
        h2.combine(Command(rawValue: "moveDown")!)
        #expect(h1.finalize() == h2.finalize())
    }

    /// Key contexts hash by the byte that stores their case, and their chains are a table by that byte: it
    /// is one byte, and each chain is the editor's own keys then the text keys, a range's then the list's.
    @Test func keyContextsAreOneByteAndTheirChainsAsDeclared() {
        #expect(MemoryLayout<KeyContext>.size == 1)
        #expect(Set(KeyContext.allCases).count == KeyContext.allCases.count)
        let chains = Dictionary(uniqueKeysWithValues: KeyContext.allCases.map { ($0.rawValue, $0.chain.map(\.rawValue)) })
        #expect(
            chains == [
                "browse": ["browse"], "text": ["text"], "editors": ["editors", "text"], "search-line": ["search-line", "text"],
                "move-picker": ["move-picker", "text"], "note-editor": ["note-editor", "text"], "visual-range": ["visual-range", "browse"],
                "help-overlay": ["help-overlay"]
            ])
    }
}
