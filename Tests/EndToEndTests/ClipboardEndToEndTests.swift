import Foundation
import TestSupport
import Testing

/// `y` in a real terminal: the OSC 52 sequence reaches tmux (which keeps what it carries as a paste buffer when
/// `set-clipboard` is on), the raw bytes the program wrote hold exactly that sequence, and the screen stays
/// as it was drawn.
@Suite(.serialized, .onAThreadOfItsOwn("end-to-end"))
struct ClipboardEndToEndTests {
    @Test func copyingPutsTheItemsOnTheClipboardWithOSC52() throws {
        let setup = TemporaryDirectory("burrow-e2e-clipboard")
        defer { withExtendedLifetime(setup) {} }
        let db = setup.path("outline.sqlite")
        #expect(try Binaries.run("burrow", ["add", "Groceries", "Work", "--db", db]).0 == 0)
        #expect(try Binaries.run("burrow", ["add", "Milk", "Evil\u{1B}]0;pwned\u{07}", "--under", "Groceries", "--db", db]).0 == 0)
        let tmux = try Tmux(
            width: 60, height: 12,
            shellCommand: """
                export BURROW_DB='\(db)' BURROW_LOG="$TEST_DIR/burrow.log"
                \(Binaries.path("burrow")); echo "exit=$?"; exec sleep infinity
                """)
        try tmux.run(["set-option", "-g", "set-clipboard", "on"])
        let raw = tmux.directory.appendingPathComponent("raw.bin")
        try tmux.run(["pipe-pane", "-o", "-t", "t", "cat >> \(Tmux.quote(raw.path))"])
        try #require(tmux.waitFor { $0.contains { $0.hasPrefix(" [ ] Groceries") } } != nil, "\(tmux.screen())")
        try tmux.send("y")
        try #require(tmux.waitFor(text: "Copied “Groceries” and 2 sub-items") != nil, "\(tmux.screen())")
        let text = "Groceries\n  Milk\n  Evil^[]0;pwned^G\n"
        let buffer = Poll.value(timeout: .seconds(10)) { () -> String? in
            let names = (try? tmux.run(["list-buffers", "-F", "#{buffer_name}"])) ?? ""
            guard !names.isEmpty else { return nil }
            return try? tmux.run(["show-buffer"])
        }
        #expect(buffer == text, "tmux took the text from the OSC 52 sequence")
        // The bytes the program wrote: the sequence once, with the text in base64.
        let sequence = "\u{1B}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{1B}\\"
        let written = Poll.value(timeout: .seconds(10)) { () -> String? in
            let bytes = (try? Data(contentsOf: raw)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            return bytes.contains(sequence) ? bytes : nil
        }
        #expect(written?.components(separatedBy: "\u{1B}]52;").count == 2, "one OSC 52 sequence")
        // The screen is untouched by it: the level is still drawn, and keys still work.
        #expect(tmux.screen().contains { $0.hasPrefix(" [ ] Groceries ") }, "\(tmux.screen())")
        try tmux.send("j", "p")
        try #require(tmux.waitFor(text: "Pasted a copy of “Groceries”") != nil, "\(tmux.screen())")
        try tmux.send("q")
        #expect(tmux.waitFor(text: "exit=0") != nil)
        #expect(try Binaries.run("burrow", ["ls", "--db", db]).1.split(separator: "\n").count == 3)
    }
}
