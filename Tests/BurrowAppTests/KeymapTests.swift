import Foundation
import Testing
import TerminalKit
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
        var seen: [TerminalKit.Key: Command] = [:]
        for b in Keymap.default.bindings {
            for key in b.keys {
                #expect(seen[key] == nil, "\(key) is bound to \(seen[key].map { "\($0)" } ?? "") and \(b.command)")
                seen[key] = b.command
            }
        }
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
            ("<C-c>", .quit),
        ]
        for (notation, command) in expected {
            #expect(map.command(for: try TerminalKit.Key.parse(notation)) == command, "\(notation)")
        }
    }
}
