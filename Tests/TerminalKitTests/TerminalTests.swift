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

    /// A list scrolled by keys: a window on 60 random rows (wide characters, clusters of several code points,
    /// styles) with a header, a selected row and a status line, moved by a row or three up or down, or
    /// jumped. The terminal scrolls the rows that moved and sends the rest; the screen is still the frame
    /// drawn fresh every time, and a scroll of one row sends far less than a screen.
    @Test(arguments: [1, 2, 3, 4]) func scrolledListsArriveWholeWithLessSent(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let (width, height) = (16, 10)
        let backend = TestBackend(width: width, height: height)
        let terminal = Terminal(backend: backend)
        let pieces = ["a", "bc", "日本", "e\u{301}", "🇫🇷", "👨‍👩‍👧‍👦", "👍🏽", "xyz", "界", "-", "  "]
        let styles = [Style.plain, Style(attributes: .bold), Style(foreground: .red), Style(background: .palette(236))]
        let rows = (0..<60).map { i in
            (
                "\(i) " + (0..<Int.random(in: 0...4, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined(),
                styles.randomElement(using: &rng)!
            )
        }
        var (offset, selected) = (0, 0)
        var (scrolledFrames, sentOnScrolls, scrollsBefore) = (0, 0, 0)
        for step in 0..<600 {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: selected = Int.random(in: 0..<rows.count, using: &rng)
            case 1...4: selected = min(rows.count - 1, selected + Int.random(in: 1...3, using: &rng))
            default: selected = max(0, selected - Int.random(in: 1...3, using: &rng))
            }
            // The list keeps the selection in its 7 rows, as a list view does.
            offset = min(max(offset, selected - 6), selected)
            let draw: (inout Frame) -> Void = { frame in
                frame.buffer.write("header \(step % 7)", at: .zero)
                for r in 0..<7 where offset + r < rows.count {
                    let (text, style) = rows[offset + r]
                    frame.buffer.write(text, at: Position(x: 1, y: 1 + r), style: style)
                    if offset + r == selected {
                        frame.buffer.updateStyle(in: Rect(x: 0, y: 1 + r, width: width, height: 1)) { $0.attributes.insert(.reverse) }
                    }
                }
                frame.buffer.write("\(selected + 1)/60", at: Position(x: 0, y: height - 1))
            }
            var fresh = Frame(size: Size(width: width, height: height))
            draw(&fresh)
            terminal.draw(draw)
            #expect(backend.screen == fresh.buffer, "seed \(seed) step \(step): \(backend.lines) is not \(fresh.buffer.lines)")
            if terminal.scrolls > scrollsBefore {
                scrolledFrames += 1
                sentOnScrolls += terminal.lastChangeCount
            }
            scrollsBefore = terminal.scrolls
        }
        #expect(backend.scrolls == terminal.scrolls)
        // Counted: the case this guards must happen often, and save most of a screen when it does.
        #expect(scrolledFrames > 100, "only \(scrolledFrames) frames scrolled")
        #expect(sentOnScrolls < scrolledFrames * width * height / 2, "\(sentOnScrolls) cells sent in \(scrolledFrames) scrolled frames")
        print("seed \(seed): \(scrolledFrames) of 600 frames scrolled, \(sentOnScrolls / max(1, scrolledFrames)) cells sent per scrolled frame")
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
