import TerminalKit
import Testing

@testable import CursesBackend

/// Reading the terminal's answers to the cluster probe, and which kind a character is.
struct ClusterProbeTests {
    @Test func cursorReportsAreReadInOrderPastOtherBytes() {
        let bytes = Array("x\u{1B}[1;3R\u{1B}[A\u{1B}[2;3Rj\u{1B}[3;5R\u{1B}[4".utf8)
        let reports = ClusterProbe.cursorReports(in: bytes)
        #expect(reports.map(\.row) == [1, 2, 3])
        #expect(reports.map(\.column) == [3, 3, 5])
        #expect(ClusterProbe.cursorReports(in: Array("\u{1B}[99999999999999999999;1R".utf8)).first?.row == 10_000)
        #expect(ClusterProbe.cursorReports(in: []).isEmpty)
    }

    @Test(
        arguments: [
            ("👨‍👩‍👧‍👦", ClusterProbe.Kind.joined), ("👨‍💻", .joined), ("🇫🇷", .flag), ("👍🏽", .modified), ("e\u{301}", nil), ("日", nil)
        ] as [(String, ClusterProbe.Kind?)])
    func kinds(text: String, kind: ClusterProbe.Kind?) {
        #expect(ClusterProbe.Kind(text.unicodeScalars) == kind)
    }

    @Test func stylesBecomeTheirEscapeSequence() {
        #expect(CursesTerminal.sgr(.plain, colors: true) == "")
        #expect(
            CursesTerminal.sgr(Style(foreground: .red, background: .palette(236), attributes: [.bold, .reverse]), colors: true)
                == "\u{1B}[1;7;31;48;5;236m")
        #expect(CursesTerminal.sgr(Style(foreground: .red, attributes: .dim), colors: false) == "\u{1B}[2m")
    }
}
