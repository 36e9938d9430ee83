import Foundation
import TestSupport
import Testing

@testable import BurrowBenchmarks

/// The live benchmark's screen model: each kind of sequence ncurses sends, written out, and once the whole
/// output of a real outliner session against tmux's screen for the same bytes.
struct ScreenModelTests {
    private func screen(_ width: Int, _ height: Int, _ output: String) -> ScreenModel {
        var model = ScreenModel(width: width, height: height)
        model.feed(Array(output.utf8))
        return model
    }

    @Test func cursorAddressingAndRelativeMovesPlaceText() {
        let m = screen(12, 4, "\u{1B}[2;3HItem 1\u{1B}[4;1Hzz\u{1B}[2A\u{1B}[3Cy\r\u{1B}[Bx\u{1B}[1;12Hq\u{1B}[3G!")
        // "y" lands on the "m" of "Item": two rows up from row 4, three columns on from column 3.
        #expect(m.rows == ["  !        q", "  Itey 1", "x", "zz"])
        #expect(!m.shows("Item 1") && m.shows("Itey 1"))
    }

    @Test func aTitleDrawnInPiecesIsFound() {
        // ncurses sends only the changed cells: "Item 12" over "Item 19" is the "2" alone.
        var m = screen(20, 3, "\u{1B}[1;1HItem 19 and more")
        m.feed(Array("\u{1B}[1;7H2\u{1B}[K".utf8))
        #expect(m.rows == ["Item 12", "", ""])
        #expect(m.shows("Item 12"))
    }

    @Test func erasingInLineAndDisplayAndCharacters() {
        var m = screen(6, 3, "abcdef\r\nghijkl\r\nmnopqr")
        #expect(m.rows == ["abcdef", "ghijkl", "mnopqr"])
        m.feed(Array("\u{1B}[2;3H\u{1B}[1K\u{1B}[1;2H\u{1B}[2X\u{1B}[3;5H\u{1B}[K".utf8))
        #expect(m.rows == ["a  def", "   jkl", "mnop"])
        m.feed(Array("\u{1B}[2;2H\u{1B}[J".utf8))
        #expect(m.rows == ["a  def", "", ""])
        m.feed(Array("\u{1B}[H\u{1B}[2J".utf8))
        #expect(m.rows == ["", "", ""])
    }

    @Test func theLastColumnWrapsOnlyWhenTheNextCharacterComes() {
        var m = screen(4, 3, "abcd")
        #expect(m.cursor == (3, 0))
        m.feed(Array("e".utf8))
        #expect(m.rows == ["abcd", "e", ""])
        // A move cancels the pending wrap.
        m.feed(Array("\u{1B}[2;4Hx\u{1B}[2;1Hzw".utf8))
        #expect(m.rows == ["abcd", "zw x", ""])
    }

    @Test func insertingAndDeletingCharactersAndTheInsertMode() {
        var m = screen(8, 1, "abcdefgh")
        m.feed(Array("\u{1B}[1;3H\u{1B}[2@".utf8))
        #expect(m.rows == ["ab  cdef"])
        m.feed(Array("\u{1B}[1;2H\u{1B}[3P".utf8))
        #expect(m.rows == ["acdef"])
        m.feed(Array("\u{1B}[4hXY\u{1B}[4lZ".utf8))
        #expect(m.rows == ["aXYZdef"])
    }

    @Test func scrollingRegionsLinesAndIndexes() {
        var m = screen(3, 5, "1\r\n2\r\n3\r\n4\r\n5")
        // Rows 2–4 scroll; 1 and 5 stay.
        m.feed(Array("\u{1B}[2;4r\u{1B}[4;1H\n".utf8))
        #expect(m.rows == ["1", "3", "4", "", "5"])
        m.feed(Array("\u{1B}[2;1H\u{1B}M".utf8))
        #expect(m.rows == ["1", "", "3", "4", "5"])
        m.feed(Array("\u{1B}[3;1H\u{1B}[L".utf8))
        #expect(m.rows == ["1", "", "", "3", "5"])
        m.feed(Array("\u{1B}[2;1H\u{1B}[2M".utf8))
        #expect(m.rows == ["1", "3", "", "", "5"])
        m.feed(Array("\u{1B}[2S".utf8))
        #expect(m.rows == ["1", "", "", "", "5"])
        // The whole screen again: a line feed at the bottom scrolls everything.
        m.feed(Array("\u{1B}[r\u{1B}[5;1Hx\ny".utf8))
        #expect(m.rows == ["", "", "", "x", " y"])
    }

    @Test func repeatUTF8WideCharactersAndLineDrawing() {
        let m = screen(10, 3, "a\u{1B}[4b\r\n日本é\r\n\u{1B}(0lqk\u{1B}(Bq\u{1B}[m\u{1B}[1;7mz")
        #expect(m.rows == ["aaaaa", "日本é", "┌─┐qz"])
        #expect(m.cursor == (5, 2))
    }

    @Test func aCursorPositionRequestIsAnswered() {
        var m = screen(10, 3, "\u{1B}[2;5H\u{1B}[6n")
        #expect(m.replies == [Array("\u{1B}[2;5R".utf8)])
        m.replies = []
        m.feed(Array("\u{1B}]52;c;aGk=\u{07}\u{1B}]0;title\u{1B}\\ok\u{1B}[?1049h\u{1B}[?25l".utf8))
        #expect(m.rows == ["", "    ok", ""])
        #expect(m.replies.isEmpty)
    }

    @Test(arguments: TestSeed.seeds([1, 2]))
    func brokenBytesNeverCrash(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var m = ScreenModel(width: 7, height: 3)
        let pieces: [[UInt8]] = [
            [0x1B], Array("[".utf8), Array("99;99H".utf8), [0xE6, 0x97], [0xFF], Array("b".utf8), Array("r".utf8), Array("2;1".utf8), [0x0A], [0x08],
            Array("X".utf8), Array("@P".utf8), Array("4h".utf8)
        ]
        for _ in 0..<20_000 { m.feed(pieces[random.below(pieces.count)]) }
        #expect(m.rows.count == 3, "\(random.note)")
        // Tiny screens, and counts far past any screen.
        for (w, h) in [(1, 1), (2, 1), (1, 2)] {
            var tiny = ScreenModel(width: w, height: h)
            for _ in 0..<2_000 { tiny.feed(pieces[random.below(pieces.count)]) }
            tiny.feed(Array("日本\u{1B}[9223372036854775807C\u{1B}[99999999999999999999B\u{1B}[9223372036854775807Xé\u{1B}[3b".utf8))
            #expect(tiny.rows.count == h, "\(random.note)")
        }
    }
}

/// The model against a real terminal: a session of the real outliner (keys, and items added by other
/// processes) is read through the model, and the same bytes are written into a tmux pane; both screens agree.
@Suite(.onAThreadOfItsOwn("end-to-end"))
struct ScreenModelAgainstTmuxTests {
    private static let burrow: String = {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("burrow").path
    }()

    /// Runs a tmux command on the test's own server; only `capture-pane`'s output is read (a server started by
    /// `new-session` keeps the descriptors it inherits, so reading its output would wait for ever).
    @discardableResult
    private func tmux(_ socket: String, _ arguments: [String]) throws -> String {
        let all = ["tmux", "-L", socket] + arguments
        guard arguments.first == "capture-pane" else {
            #expect(Harness.runProcess("/usr/bin/env", all) != nil, "\(all)")
            return ""
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = all
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func aSessionOfTheOutlinerLooksTheSameInTmux() throws {
        let folder = TemporaryDirectory("screen-model")
        let dir = folder.url.path
        let o = try LiveBenchmarks.Outliner(burrow: Self.burrow, dir: dir, name: "s", watches: true, recording: true)
        defer { o.pty.stop() }
        func add(_ arguments: [String]) throws {
            #expect(Harness.runProcess(Self.burrow, ["add", "--db", o.store] + arguments) != nil)
        }
        for i in 1...30 { try add(["Entry \(i) ünïcödé 日本"]) }
        #expect(o.wait(timeout: 10) { $0.shows("Entry 30") || $0.shows("1/31") } != nil)
        // Down the list (the screen scrolls), an item added above elsewhere, a fold opened, back up.
        o.send("jjjjjjjjjjjjjjjjjjjjjjjjj")
        #expect(o.wait(timeout: 10) { $0.shows("26/31") } != nil)
        try add(["--top", "Zeroth"])
        try add(["--under", "Entry 24 ünïcödé 日本", "Child of 24"])
        // Both adds on screen (the child as Entry 24's closed count) before the fold is opened: the two adds can
        // reach the outliner as two changes, and a fold opened before its child arrives opens nothing.
        #expect(o.wait(timeout: 10) { $0.shows("27/32") && $0.shows("1 ›") } != nil, "\(o.screen.rows.joined(separator: "\n"))")
        o.send("kzo")
        #expect(o.wait(timeout: 10) { $0.shows("26/33") && $0.shows("1 ▾") } != nil, "\(o.screen.rows.joined(separator: "\n"))")
        o.send("kkkkk")
        #expect(o.wait(timeout: 10) { $0.shows("21/33") } != nil)
        o.send("I")
        #expect(o.wait(timeout: 10) { $0.shows("Created") } != nil)
        let transcript = try #require(o.transcript)
        let file = folder.path("transcript")
        try Data(transcript).write(to: URL(fileURLWithPath: file))
        // The same bytes into a pane of the same size, the pane's tty passing them on untouched.
        let socket = "burrow-model-\(getpid())"
        defer { _ = try? tmux(socket, ["kill-server"]) }
        let config = folder.path("tmux.conf")
        try "set -g status off\n".write(toFile: config, atomically: true, encoding: .utf8)
        try tmux(
            socket,
            [
                "-f", config, "new-session", "-d", "-x", "80", "-y", "24",
                "stty raw -echo -opost; cat '\(file)'; exec sleep 1000"
            ])
        let expected = o.screen.rows
        var seen: [String] = []
        let same = Poll.until(timeout: .seconds(10)) {
            let text = (try? tmux(socket, ["capture-pane", "-p"])) ?? ""
            seen = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(24).map {
                var s = String($0)
                while s.last == " " { s.removeLast() }
                return s
            }
            while seen.count < 24 { seen.append("") }
            return seen == expected
        }
        #expect(same, "model:\n\(expected.joined(separator: "\n"))\ntmux:\n\(seen.joined(separator: "\n"))")
    }
}
