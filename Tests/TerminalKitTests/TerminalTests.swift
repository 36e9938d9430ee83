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

    /// Frames of random text (wide characters, combining marks, styles) drawn one after another, each into the
    /// buffer of the frame before the last (cleared) and sent as a diff: the screen is what drawing the same
    /// frame into a new buffer gives, every time, and a frame that changes nothing sends nothing.
    @Test(arguments: [1, 2, 3]) func reusedBuffersAndDiffsGiveTheFrameDrawnFresh(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let backend = TestBackend(width: 12, height: 4)
        let terminal = Terminal(backend: backend)
        let pieces = ["a", "bc", "日本", "e\u{301}", "  ", "xyz", "ü", "界", "-"]
        let styles = [Style.plain, Style(attributes: .reverse), Style(foreground: .red), Style(background: .palette(236))]
        var unchanged = 0
        var writes: [(String, Position, Style)] = []
        for step in 0..<400 {
            // A third of the frames are the frame before again, as most keys leave most rows alone.
            if step == 0 || Int.random(in: 0..<3, using: &rng) > 0 {
                writes = (0..<Int.random(in: 0...6, using: &rng)).map { _ in
                    (
                        pieces.randomElement(using: &rng)!,
                        Position(x: Int.random(in: -1...12, using: &rng), y: Int.random(in: 0...3, using: &rng)),
                        styles.randomElement(using: &rng)!
                    )
                }
            }
            let draw: (inout Frame) -> Void = { frame in
                for (text, at, style) in writes { frame.buffer.write(text, at: at, style: style) }
            }
            var fresh = Frame(size: Size(width: 12, height: 4))
            draw(&fresh)
            let before = backend.screen
            terminal.draw(draw)
            let same = backend.screen == fresh.buffer
            #expect(same, "step \(step): the screen \(backend.lines) is not the frame drawn fresh, \(fresh.buffer.lines)")
            // (The first frame sends every cell.)
            if step > 0, before == fresh.buffer {
                unchanged += 1
                #expect(terminal.lastChangeCount == 0)
            }
        }
        #expect(unchanged > 100, "only \(unchanged) unchanged frames")
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
