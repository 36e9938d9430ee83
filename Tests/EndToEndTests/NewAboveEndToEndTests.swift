import Foundation
import TestSupport
import Testing

/// The real `burrow` in tmux while other `burrow add --top` processes add items above the rows it shows: the
/// rows stay put and the status line counts them; scrolling up to them shows them and the count goes.
@Suite(.onAThreadOfItsOwn("end-to-end"))
struct NewAboveEndToEndTests {
    @Test func itemsAddedAboveByOtherProcessesAreCountedUntilScrolledTo() throws {
        let tmux = try Tmux(
            width: 40, height: 10,
            shellCommand: """
                export BURROW_DB="$TEST_DIR/outline.sqlite" BURROW_LOG="$TEST_DIR/burrow.log"
                read go
                \(Binaries.path("burrow")); echo "exit=$?"; exec sleep infinity
                """)
        let db = tmux.directory.appendingPathComponent("outline.sqlite").path
        func add(_ arguments: [String]) throws {
            let (status, _, err) = try Binaries.run("burrow", ["add", "--db", db] + arguments)
            #expect(status == 0, "\(err)")
        }
        try add((1...20).map { "Item \($0)" })
        try tmux.send("Enter")
        #expect(tmux.waitFor(text: "1/20") != nil, "\(tmux.screen())")
        // Up from the end to Item 12: the list has scrolled, Item 12 on the first row.
        try tmux.send("G")
        #expect(tmux.waitFor(text: "20/20") != nil)
        try tmux.send("k", "k", "k", "k", "k", "k", "k", "k")
        let before = tmux.waitFor(text: "12/20")
        #expect(before?[2] == " [ ] Item 12", "\(tmux.screen())")
        try add(["--top", "New A"])
        try add(["--top", "New B"])
        let after = tmux.waitFor(text: "2 new above · 14/22")
        #expect(after.map { Array($0.dropLast()) } == before.map { Array($0.dropLast()) }, "\(tmux.screen())")
        // A third, then up to the top: each is shown, none counted.
        try add(["--top", "New C"])
        #expect(tmux.waitFor(text: "3 new above · 15/23") != nil, "\(tmux.screen())")
        try tmux.send("g")
        let top = tmux.waitFor(text: "1/23")
        #expect(top?.contains(" [ ] New C") == true && top?.contains { $0.contains("new above") } == false, "\(tmux.screen())")
        try tmux.send("q")
        #expect(tmux.waitFor(text: "exit=0") != nil)
    }
}
