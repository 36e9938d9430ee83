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

    @Test func answersAreTakenOnlyWhileAskedAndNeverFromTheTopRow() {
        var probe = ClusterProbe()
        let early = probe.take(row: 2, column: 3)
        #expect(!early, "not asked yet: Shift-F3 and friends stay keys")
        let small = probe.request(screen: Size(width: 80, height: 3), cursorAfter: Position(x: 0, y: 0))
        #expect(small == nil)
        let request = probe.request(screen: Size(width: 80, height: 24), cursorAfter: Position(x: 4, y: 7))
        #expect(request?.hasPrefix("\u{1B}[2;1H") == true, "samples start on the second row")
        #expect(request?.hasSuffix("\u{1B}[8;5H") == true, "the cursor goes back where ncurses left it")
        let again = probe.request(screen: Size(width: 80, height: 24), cursorAfter: Position(x: 0, y: 0))
        #expect(again == nil, "asked once")
        let top = probe.take(row: 1, column: 3)
        #expect(!top, "ESC [ 1 ; 3 R is Alt-F3")
        let (second, third) = (probe.take(row: 2, column: 3), probe.take(row: 3, column: 3))
        #expect(second && third)
        #expect(probe.state == .asked)
        let fourth = probe.take(row: 4, column: 5)
        #expect(fourth)
        #expect(probe.state == .answered)
        #expect(probe.widths == [.joined: 2, .flag: 2, .modified: 4])
        let late = probe.take(row: 2, column: 3)
        #expect(!late, "answered: a later report is a key")
    }

    @Test(
        arguments: [
            ("👨‍👩‍👧‍👦", ClusterProbe.Kind.joined), ("👨‍💻", .joined), ("🇫🇷", .flag), ("👍🏽", .modified), ("e\u{301}", nil), ("日", nil)
        ] as [(String, ClusterProbe.Kind?)])
    func kinds(text: String, kind: ClusterProbe.Kind?) {
        #expect(ClusterProbe.Kind(text.unicodeScalars) == kind)
    }
}
