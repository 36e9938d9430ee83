import TerminalKit
import TestSupport
import Testing

struct TerminalTests {
    @Test func sendsOnlyWhatChangedBetweenFrames() {
        let backend = TestBackend(width: 10, height: 3)
        let terminal = Terminal(backend: backend)
        terminal.draw { $0.buffer.write("hello", at: .zero) }
        #expect(backend.lastDrawCount == 30)
        terminal.draw { $0.buffer.write("hello", at: .zero) }
        #expect(terminal.lastChangeCount == 0)
        terminal.draw { $0.buffer.write("help", at: .zero) }
        #expect(terminal.lastChangeCount == 2)  // "l" → "p", "o" → " "
        expectScreen(
            backend,
            """
            help


            """)
    }

    @Test func cursorIsShownOnlyWhenAFrameAsksAndInside() {
        let backend = TestBackend(width: 10, height: 2)
        let terminal = Terminal(backend: backend)
        terminal.draw { $0.cursor = Position(x: 3, y: 1) }
        #expect(backend.cursor == Position(x: 3, y: 1))
        terminal.draw { _ in }
        #expect(backend.cursor == nil)
        terminal.draw { $0.cursor = Position(x: 10, y: 0) }
        #expect(backend.cursor == nil)
    }

    @Test func invalidateAndResizeSendEverything() {
        let backend = TestBackend(width: 4, height: 2)
        let terminal = Terminal(backend: backend)
        terminal.draw { $0.buffer.write("ab", at: .zero) }
        terminal.invalidate()
        terminal.draw { $0.buffer.write("ab", at: .zero) }
        #expect(terminal.lastChangeCount == 8)
        backend.resize(width: 3, height: 1)
        terminal.draw { $0.buffer.write("abcdef", at: .zero) }
        #expect(terminal.lastChangeCount == 3)
        #expect(backend.nextEvent(timeout: nil) == .resize(Size(width: 3, height: 1)))
        expectScreen(backend, "abc")
    }

    @Test func screenDifferenceIsReadable() {
        let backend = TestBackend(width: 6, height: 3)
        Terminal(backend: backend).draw { frame in
            frame.buffer.write("one", at: .zero)
            frame.buffer.write("two", at: Position(x: 0, y: 1))
        }
        #expect(backend.difference(from: "one\ntwo\n") == nil)
        #expect(
            backend.difference(from: "one\nTWO\n") == """
                screen (6×3) differs from the expected one (- expected, + actual):
                    1 |one|
                -   2 |TWO|
                +   2 |two|
                    3 ||

                """)
        #expect(backend.difference(from: "one\ntwo") != nil)  // a missing row is a difference
    }

    @Test func scriptedInputComesOutOneEventAtATime() throws {
        let backend = TestBackend(width: 1, height: 1)
        try backend.type("j <C-z>")
        backend.send(.paste("x"))
        #expect(backend.nextEvent(timeout: .zero) == .key(.character("j")))
        #expect(backend.nextEvent(timeout: .zero) == .key(.ctrl("z")))
        #expect(backend.nextEvent(timeout: .zero) == .paste("x"))
        #expect(backend.nextEvent(timeout: .zero) == nil)
    }

    @Test(arguments: [
        (Color.red, 8, Color.red), (Color.palette(9), 8, Color.red), (Color.palette(196), 8, Color.red),
        (Color.palette(21), 8, Color.blue), (Color.palette(231), 8, Color.white), (Color.palette(232), 8, Color.black),
        (Color.palette(255), 8, Color.white), (Color.palette(244), 256, Color.palette(244)), (Color.default, 8, Color.default)
    ])
    func colorsFoldOntoSmallerPalettes(color: Color, size: Int, expected: Color) {
        #expect(color.approximated(toPaletteSize: size) == expected)
    }
}
