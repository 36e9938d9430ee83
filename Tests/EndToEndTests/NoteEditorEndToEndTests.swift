import Foundation
import TestSupport
import Testing

/// `E` in a real terminal: the editor (a script standing in for one) gets the terminal, the outliner takes it
/// back and redraws, and the note is saved.
@Suite(.serialized, .onAThreadOfItsOwn("end-to-end"))
struct NoteEditorEndToEndTests {
    @Test func theEditorGetsTheTerminalAndTheNoteIsSaved() throws {
        let setup = TemporaryDirectory("burrow-e2e-editor")
        defer { withExtendedLifetime(setup) {} }
        // The fake editor shows what it edits, waits for a line typed in the terminal (proving it has the
        // terminal), then writes the note.
        let script = setup.path("editor.sh")
        try Data(
            """
            printf 'FAKE EDITOR on %s\\n' "$(cat "$1")"
            read answer
            printf 'typed: %s' "$answer" > "$1"

            """.utf8
        ).write(to: URL(fileURLWithPath: script))
        let db = setup.path("outline.sqlite")
        #expect(try Binaries.run("burrow", ["add", "Plan", "--db", db]).0 == 0)
        #expect(try Binaries.run("burrow", ["note", "Plan", "old note", "--db", db]).0 == 0)
        let tmux = try Tmux(
            width: 60, height: 12,
            shellCommand: """
                export BURROW_DB='\(db)' BURROW_LOG="$TEST_DIR/burrow.log" EDITOR="sh '\(script)'"
                \(Binaries.path("burrow")); echo "exit=$?"; exec sleep infinity
                """)
        try #require(tmux.waitFor { $0.contains { $0.hasPrefix(" [ ] Plan ¶") } } != nil, "\(tmux.screen())")
        try tmux.send("E")
        try #require(tmux.waitFor(text: "FAKE EDITOR on old note") != nil, "\(tmux.screen())")
        try tmux.type("new words")
        try tmux.send("Enter")
        try #require(tmux.waitFor(text: "Saved the note of “Plan”") != nil, "\(tmux.screen())")
        #expect(tmux.screen().contains { $0.hasPrefix(" [ ] Plan ¶") }, "the outline is drawn again")
        try tmux.send("q")
        #expect(tmux.waitFor(text: "exit=0") != nil)
        #expect(try Binaries.run("burrow", ["note", "Plan", "--db", db]).1 == "typed: new words\n")
    }
}
