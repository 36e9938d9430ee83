import TerminalKit
import TestSupport
import Testing

@testable import CursesBackend

/// The frames' bytes, played into a model of a terminal, give the frames: every cell's character and style,
/// the cursor, over random frames of a scrolling list with wide characters, colours and a status line in the
/// bottom right corner, on terminals that wrap at the last column in each of the ways terminfo describes.
@Suite struct FrameWriterTests {
    /// A backend that writes with `FrameWriter` into a model of the terminal.
    final class ModelBackend: TerminalBackend {
        var writer: FrameWriter
        var model: StyledScreenModel
        var cursor: Position?
        var bytes = 0
        let size: Size

        init(_ capabilities: TerminalCapabilities, size: Size, deferredWrap: Bool) {
            self.size = size
            writer = FrameWriter(capabilities: capabilities, size: size)
            model = StyledScreenModel(
                width: size.width, height: size.height, automaticMargins: capabilities.automaticMargins, deferredWrap: deferredWrap)
        }

        func draw(_ changes: [CellChange]) { writer.draw(changes) { $0.symbol } }
        func draw(_ changes: [CellChange], in frame: Buffer) { writer.draw(changes, in: frame) { $0.symbol } }
        func setCursor(_ position: Position?) { cursor = position }
        func clear() { writer.forget() }
        func scroll(_ region: Range<Int>, by count: Int) -> Bool { writer.scroll(region, by: count) }
        func flush() {
            writer.showCursor(at: cursor)
            let out = writer.take()
            bytes += out.count
            model.feed(out)
        }
    }

    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        /// xterm: margins wrap late (`xenl`), and can be turned off.
        case xterm
        /// Margins that wrap at once, turned off for the corner.
        case wrapsAtOnce
        /// Margins that wrap at once and cannot be turned off: the corner is left blank.
        case cornerUnwritable
        /// No scroll region: rows that moved are sent again.
        case noScrollRegion
        /// No colour (NO_COLOR): only attributes.
        case monochrome
        /// Addresses in another form than xterm's (numbers of two digits): filled in by `TerminfoFormat`.
        case paddedAddresses
        /// No erase to the end of the line: trailing blanks are written.
        case noErase
        var testDescription: String { rawValue }

        var capabilities: TerminalCapabilities {
            var c = TerminalCapabilities.xterm256
            switch self {
            case .xterm: break
            case .wrapsAtOnce: c.deferredWrap = false
            case .cornerUnwritable:
                c.deferredWrap = false
                c.marginsOff = nil
                c.marginsOn = nil
            case .noScrollRegion: c.scrollRegion = nil
            case .monochrome:
                c.colors = 0
                c.foreground = nil
                c.background = nil
            case .paddedAddresses:
                c.cursorAddress = "\u{1B}[%i%p1%02d;%p2%02dH"
                c.scrollRegion = "\u{1B}[%i%p1%02d;%p2%02dr"
            case .noErase: c.clearToEnd = nil
            }
            return c
        }
    }

    @Test(arguments: Kind.allCases)
    func framesPlayedIntoATerminalAreTheFrames(kind: Kind) {
        let size = Size(width: 40, height: 12)
        let backend = ModelBackend(kind.capabilities, size: size, deferredWrap: kind.capabilities.deferredWrap)
        let terminal = Terminal(backend: backend)
        var rng = SeededRandom(seed: TestSeed.seed(0xF7A3E))
        let titles = (0..<300).map { i -> String in
            let pieces = ["task", "日本語", "naïve", "e\u{301}clair", "👍", "x", "long title that runs past the edge of the screen", "🇫🇷"]
            return "\(i) " + (0..<1 + rng.below(4)).map { _ in pieces[rng.below(pieces.count)] }.joined(separator: " ")
        }
        let styles = [
            Style.plain, Style(foreground: .red), Style(foreground: .palette(244), background: .palette(236)),
            Style(attributes: [.bold, .underline]), Style(foreground: .palette(12), attributes: .dim)
        ]
        var offset = 0, selected = 0
        var frames = 0, mismatches: [String] = []
        for step in 0..<600 {
            switch rng.below(10) {
            case 0...5: selected = max(0, min(titles.count - 1, selected + (rng.below(4) == 0 ? -1 : 1) * 1 + rng.below(3)))
            case 6: selected = rng.below(titles.count)
            case 7: terminal.invalidate()
            default: break
            }
            let rows = size.height - 2
            if selected < offset { offset = selected }
            if selected >= offset + rows { offset = selected - rows + 1 }
            let showsCursor = rng.below(5) == 0
            let frame = terminal.draw { frame in
                frame.buffer.write("Home › Projects › 日本", at: Position(x: 0, y: 0), style: styles[3])
                for r in 0..<rows where offset + r < titles.count {
                    let index = offset + r
                    let style = index == selected ? Style(attributes: .reverse) : styles[index % styles.count]
                    let area = Rect(x: 0, y: 1 + r, width: size.width, height: 1)
                    if index == selected { frame.buffer.fill(area, with: .blank(style)) }
                    frame.buffer.write(titles[index], at: area.origin, style: style, maxWidth: size.width)
                }
                // The status line fills the bottom row to its last column.
                let status = DisplayWidth.pad("\(selected + 1)/\(titles.count) · step \(step)", to: size.width)
                frame.buffer.write(status, at: Position(x: 0, y: size.height - 1), style: Style(attributes: .reverse))
                frame.cursor = showsCursor ? Position(x: rng.below(size.width), y: rng.below(size.height)) : nil
            }
            frames += 1
            if let difference = difference(frame, backend.model, cornerUnwritable: kind == .cornerUnwritable, monochrome: kind == .monochrome) {
                mismatches.append("step \(step): \(difference)")
                break
            }
        }
        print(
            "frame writer, \(kind.rawValue): \(frames) frames, \(terminal.scrolls) scrolled, \(backend.writer.bridges) gaps written over, \(backend.writer.erasures) rows' ends erased, \(backend.bytes) bytes"
        )
        #expect(mismatches.isEmpty, "\(mismatches.first ?? ""), \(rng.note)")
        #expect(backend.model.unknown.isEmpty, "sequences the model does not know: \(backend.model.unknown.prefix(5))")
        if kind == .noScrollRegion {
            #expect(terminal.scrolls == 0)
        } else {
            // The case that moves rows with the terminal happened often.
            #expect(terminal.scrolls > 100, "only \(terminal.scrolls) scrolls")
        }
        // Gaps between changes written over with the cells the terminal shows happened often.
        #expect(backend.writer.bridges > 200, "only \(backend.writer.bridges) gaps written over")
        // Rows ending in blanks were erased to their end where the terminal can.
        if kind == .noErase {
            #expect(backend.writer.erasures == 0)
        } else {
            #expect(backend.writer.erasures > 100, "only \(backend.writer.erasures) rows' ends erased")
        }
        // The screen itself never scrolled but by a scroll region: nothing wrote in the bottom right corner past it.
        #expect(backend.model.scrolls <= terminal.scrolls * 3)
    }

    /// The first difference between a frame and the model's screen, or nil.
    private func difference(_ frame: Frame, _ model: StyledScreenModel, cornerUnwritable: Bool, monochrome: Bool) -> String? {
        for y in 0..<frame.size.height {
            for x in 0..<frame.size.width {
                var want = frame.buffer[x, y]
                let got = model.cells[y][x]
                if monochrome { want.style = Style(attributes: want.style.attributes) }
                if cornerUnwritable, y == frame.size.height - 1, x == frame.size.width - 1 {
                    if got.symbol != " " { return "(\(x), \(y)): the corner was written: \(got.symbol)" }
                    continue
                }
                if want.isContinuation != got.isContinuation || want.symbol != got.symbol || want.style != got.style {
                    return "(\(x), \(y)): want \(want.symbol.debugDescription) \(want.style), got \(got.symbol.debugDescription) \(got.style); row "
                        + (0..<frame.size.width).map { model.cells[y][$0].symbol }.joined().debugDescription
                }
            }
        }
        if let cursor = frame.cursor {
            if !model.cursorVisible || model.x != cursor.x || model.y != cursor.y {
                return "cursor at \(model.x),\(model.y) visible \(model.cursorVisible), want \(cursor)"
            }
        } else if model.cursorVisible {
            return "cursor shown, want it hidden"
        }
        return nil
    }
}
