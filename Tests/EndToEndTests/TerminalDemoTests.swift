import Foundation
import TestSupport
import Testing

@testable import BurrowBenchmarks

/// The terminal layer in a real terminal: the demo program in tmux, driven by keys, resized, signalled.
@Suite(.serialized, .onAThreadOfItsOwn("end-to-end"))
struct TerminalDemoTests {
    /// Runs the demo, then prints its exit status and saves the terminal's modes, so a test can check both.
    private func startDemo(width: Int = 60, height: Int = 10, environment: [String: String] = [:]) throws -> Tmux {
        var env = ""
        for (k, v) in environment { env += "\(k)=\(Tmux.quote(v)) " }
        let demo = "echo $$ > \"$TEST_DIR/pid\"; ulimit -c 0; exec env \(env)\(Binaries.path("TerminalDemo"))"
        return try Tmux(
            width: width, height: height,
            shellCommand:
                "sh -c \(Tmux.quote(demo)); echo \"exit=$?\"; stty -a > \"$TEST_DIR/stty.txt\"; exec sleep infinity")
    }

    private func demoPID(_ tmux: Tmux) throws -> pid_t {
        let path = tmux.directory.appendingPathComponent("pid").path
        // The shell writes the file as it starts; a half-written one reads as no number yet.
        let pid = Poll.value(timeout: .seconds(5)) {
            (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        guard let pid else { throw TmuxError(arguments: ["pid"], status: -1) }
        return pid
    }

    /// The terminal is back to how the shell left it: main screen, cursor shown, no keypad or mouse mode, and
    /// cooked mode with echo and flow control.
    private func expectRestored(_ tmux: Tmux, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(
            try tmux.display("#{alternate_on} #{cursor_flag} #{keypad_flag} #{mouse_any_flag}") == "0 1 0 0",
            sourceLocation: sourceLocation)
        let sttyPath = tmux.directory.appendingPathComponent("stty.txt").path
        // Written by the shell once the program has ended; empty until `stty` has run.
        let modes =
            Poll.value(timeout: .seconds(5)) {
                (try? String(contentsOfFile: sttyPath, encoding: .utf8)).flatMap { $0.isEmpty ? nil : $0 }
            } ?? ""
        let words = Set(modes.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init))
        let missing = ["icanon", "echo", "ixon", "isig", "icrnl", "opost"].filter { !words.contains($0) }
        #expect(missing.isEmpty, "terminal modes not restored: \(missing)", sourceLocation: sourceLocation)
    }

    @Test func drawsTypesResizesAndRestoresTheTerminal() throws {
        let tmux = try startDemo()
        let first = try #require(tmux.waitFor(text: "last: none"))
        #expect(
            first == [
                "",
                "1. plain item",
                "2. 日本語のテキスト",
                "3. evil ^[]0;pwned^G ^[[2J title",
                "4. café ☕ done",
                "", "", "", "",
                "last: none                                             60x10"
            ])
        // The escape sequences in item 3 were shown, not obeyed: the window title is unchanged.
        #expect(try !tmux.display("#{pane_title}").contains("pwned"))
        #expect(try tmux.display("#{alternate_on} #{cursor_flag}") == "1 1")

        try tmux.type("hi 日本")
        try tmux.send("Left", "BSpace")
        #expect(tmux.waitFor(text: "last: <BS>")?.first == "hi 本")
        // Flow control and job control keys reach the program in raw mode.
        for (key, shown) in [
            ("C-s", "<C-s>"), ("C-q", nil), ("C-z", "<C-z>"), ("C-c", "<C-c>"), ("S-Up", "<S-Up>"),
            ("M-Up", "<A-Up>"), ("M-x", "<A-x>"), ("BTab", "<S-Tab>"), ("F5", "<F5>"), ("Escape", "<Esc>")
        ] {
            guard let shown else { continue }
            try tmux.send(key)
            #expect(tmux.waitFor(text: "last: \(shown)") != nil, "key \(key) did not arrive as \(shown)")
        }
        try tmux.send("End", "Enter")
        #expect(tmux.waitFor(text: "5. hi 本") != nil)

        try tmux.paste("one\ntwo")
        #expect(tmux.waitFor(text: "last: paste(7)")?.first == "one two")

        try tmux.resize(width: 40, height: 6)
        let resized = try #require(tmux.waitFor(text: "last: resize(40x6)"))
        #expect(
            resized == [
                "one two",
                "2. 日本語のテキスト",
                "3. evil ^[]0;pwned^G ^[[2J title",
                "4. café ☕ done",
                "5. hi 本",
                "last: resize(40x6)                  40x6"
            ])

        try tmux.send("C-q")
        #expect(tmux.waitFor(text: "exit=0") != nil)
        #expect(tmux.screen().contains("terminal-demo: bye"))
        try expectRestored(tmux)
    }

    /// Characters of several code points (issue 15) in a real terminal: each is one character of the width our
    /// tables give, or a stand-in of that width where the terminal cannot draw it as one, and the text after
    /// it is where the program put it. The cursor after them is where the program put it too.
    @Test func drawsCharactersOfSeveralCodePointsWholeAndAligned() throws {
        let tmux = try startDemo()
        try #require(tmux.waitFor(text: "last: none") != nil)
        // A family (7 code points), a flag, a skin tone, an accent typed after its letter, CJK, a ZWJ pair.
        try tmux.type("a👨‍👩‍👧‍👦b🇫🇷c👍🏽de\u{301}f日本g👨‍💻h")
        #expect(tmux.waitFor(text: "last: h") != nil)
        #expect(try tmux.display("#{cursor_x} #{cursor_y}") == "20 0", "1+2+1+2+1+2+1+1+1+4+1+2+1 cells")
        // X goes in at column 16: everything after it is written again, next to cells drawn before.
        try tmux.send("Left", "Left", "Left", "X")
        // The ZWJ pair is written over its stand-in (U+3000) after ncurses' refresh, in a write of its own, so
        // the status line can show before it: wait for both. Had it never come, the row below keeps U+3000.
        let settled = { (s: [String]) in s.contains { $0.contains("last: X") } && s.first?.contains("\u{3000}") == false }
        let row = (tmux.waitFor(settled) ?? tmux.screen()).first ?? ""
        #expect(try tmux.display("#{cursor_x}") == "17")
        // tmux 3.3a keeps at most 21 bytes in a cell, so the family's boy is cut (the cell is still two wide),
        // and draws a skin tone as two more cells, so the program shows its stand-in there.
        let accepted = ["👨‍👩‍👧‍👦", "👨‍👩‍👧‍"].flatMap { family in
            ["👍🏽", "\u{FFFD} "].map { thumb in "a\(family)b🇫🇷c\(thumb)de\u{301}f日本Xg👨‍💻h" }
        }
        #expect(accepted.contains(row), "\(row.debugDescription) \(row.unicodeScalars.map { String($0.value, radix: 16) })")
        try tmux.send("Enter")
        let listed = tmux.waitFor { s in s.count > 5 && s[5].hasPrefix("5. a") && !s[5].contains("\u{3000}") } ?? tmux.screen()
        try #require(listed.count > 5, "\(listed)")
        #expect(accepted.map { "5. " + $0 }.contains(listed[5]), "\(listed[5].debugDescription)")
        try tmux.send("C-q")
        #expect(tmux.waitFor(text: "exit=0") != nil)
    }

    /// Wide characters moved left by one cell, over one another, with ASCII after them: ncurses must not blank
    /// a character just drawn because the cell after it was half of a wide character a frame ago.
    @Test func wideCharactersMovedOverEachOtherStayWhole() throws {
        let tmux = try startDemo()
        try #require(tmux.waitFor(text: "last: none") != nil)
        try tmux.type("x日本a b日c")
        #expect(tmux.waitFor(text: "last: c") != nil)
        // To just after the x, then delete it: everything after it moves one cell left.
        try tmux.send("Home", "Right", "BSpace")
        let row = (tmux.waitFor(text: "last: <BS>") ?? tmux.screen()).first ?? ""
        #expect(row == "日本a b日c", "\(row.debugDescription)")
        // And back: typed in again, everything moves one cell right.
        try tmux.type("y")
        let again = (tmux.waitFor(text: "last: y") ?? tmux.screen()).first ?? ""
        #expect(again == "y日本a b日c", "\(again.debugDescription)")
        try tmux.send("C-q")
        #expect(tmux.waitFor(text: "exit=0") != nil)
    }

    @Test(arguments: [(SIGTERM, "TERM"), (SIGHUP, "HUP"), (SIGINT, "INT"), (SIGUSR1, "USR1"), (SIGUSR2, "USR2"), (SIGALRM, "ALRM")])
    func aTerminationSignalRestoresTheTerminal(signal: Int32, name: String) throws {
        let tmux = try startDemo()
        try #require(tmux.waitFor(text: "last: none") != nil)
        kill(try demoPID(tmux), signal)
        // The demo re-raises the signal after restoring, so the shell sees 128 + signal.
        #expect(tmux.waitFor(text: "exit=\(128 + signal)") != nil, "no exit after SIG\(name)")
        try expectRestored(tmux)
    }

    /// Signals that dump core by default cannot wait for the input loop: the handler restores the terminal
    /// (modes as they were before ncurses started) and the signal then does what it would have done.
    @Test(arguments: [(SIGQUIT, "QUIT"), (SIGABRT, "ABRT"), (SIGSEGV, "SEGV"), (SIGSYS, "SYS"), (SIGXCPU, "XCPU")])
    func aSignalThatDumpsCoreRestoresTheTerminalFirst(signal: Int32, name: String) throws {
        let tmux = try startDemo()
        try #require(tmux.waitFor(text: "last: none") != nil)
        kill(try demoPID(tmux), signal)
        #expect(tmux.waitFor(text: "exit=\(128 + signal)") != nil, "no exit after SIG\(name): \(tmux.screen())")
        try expectRestored(tmux)
    }

    @Test func sigpipeDoesNotEndTheProgram() throws {
        let tmux = try startDemo()
        try #require(tmux.waitFor(text: "last: none") != nil)
        kill(try demoPID(tmux), SIGPIPE)
        try tmux.type("x")
        #expect(tmux.waitFor(text: "last: x") != nil, "\(tmux.screen())")
        try tmux.send("C-q")
        #expect(tmux.waitFor(text: "exit=0") != nil)
        try expectRestored(tmux)
    }

    /// Suspending needs a shell with job control (a process group that is not orphaned), as a user has.
    @Test func suspendRestoresTheTerminalAndResumeRedraws() throws {
        let tmux = try Tmux(width: 60, height: 10, shellCommand: "PS1='$ ' exec bash --norc --noprofile -i")
        try #require(tmux.waitFor(text: "$") != nil)
        try tmux.type("sh -c 'echo $$ > \"$TEST_DIR/pid\"; exec \(Binaries.path("TerminalDemo"))'")
        try tmux.send("Enter")
        try #require(tmux.waitFor(text: "last: none") != nil)
        let pid = try demoPID(tmux)
        kill(pid, SIGTSTP)
        #expect(tmux.waitFor { _ in (try? tmux.display("#{alternate_on}")) == "0" } != nil, "suspend left the alternate screen on")
        #expect(try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8).split(separator: " ")[2] == "T")
        #expect(try tmux.display("#{alternate_on} #{cursor_flag} #{keypad_flag} #{mouse_any_flag}") == "0 1 0 0")
        // As a user would: type `fg` once the shell has said the job stopped and prompted again, not while it
        // may still be taking the terminal back.
        let stopped = tmux.waitFor { screen in
            guard let line = screen.lastIndex(where: { $0.contains("Stopped") }) else { return false }
            return screen[(line + 1)...].contains { $0.hasPrefix("$") }
        }
        try #require(stopped != nil, "the shell did not report the job stopped: \(tmux.screen())")
        try tmux.type("fg")
        try tmux.send("Enter")
        let back = tmux.waitFor(text: "last: resumed")
        #expect(back?.contains("1. plain item") == true, "not resumed: \(tmux.screen())")
        #expect(try tmux.display("#{alternate_on}") == "1")
        try tmux.send("C-q")
        #expect(tmux.waitFor(text: "terminal-demo: bye") != nil, "\(tmux.screen())")
        try tmux.type("stty -a > \"$TEST_DIR/stty.txt\"")
        try tmux.send("Enter")
        try expectRestored(tmux)
    }

    /// The first frame asks the terminal how it draws some characters; from a terminal far away the answers
    /// may still be on their way when the user quits (or suspends). Left unread they are typed into the shell
    /// (`^[[2;3R`), so they are read first, and no further: what is typed after them is the shell's. The
    /// terminal here holds its answers and sends them just after Ctrl-Q, then `ls` and Enter, in one write;
    /// a second reader of the device stands for the shell and must find exactly `ls` and Enter.
    @Test func answersStillOnTheirWayAreReadBeforeTheShellGetsTheTerminal() throws {
        let (pty, shell) = try demoWithShellReader(answers: true)
        defer {
            close(shell)
            pty.stop()
        }
        let answers = pty.heldAnswers
        #expect(answers.count(where: { $0 == UInt8(ascii: "R") }) == 3, "the first frame asked about the three kinds")
        pty.send([0x11] + answers + Array("ls\r".utf8))
        try expectLeftForTheShell(pty, shell, "ls\r")
    }

    /// A terminal that never answers the question: past the second its answers could take, quitting reads
    /// nothing more, and what was typed after Ctrl-Q is all left for the shell.
    @Test func aTerminalThatNeverAnswersKeepsWhatIsTypedAheadForTheShell() throws {
        let (pty, shell) = try demoWithShellReader(answers: false)
        defer {
            close(shell)
            pty.stop()
        }
        // Waits on the clock, not on a screen: the wait for answers ends a second after the first frame asked.
        let asked = ContinuousClock.now
        _ = Poll.until(timeout: .seconds(5)) { ContinuousClock.now - asked > .milliseconds(1_200) }
        pty.send([0x11] + Array("ls\r".utf8))
        try expectLeftForTheShell(pty, shell, "ls\r")
    }

    /// A terminal that is not the program's controlling one sends no SIGHUP when it goes away: the program
    /// sees reads that fail at once. It ends as on SIGHUP, and does not read them in a loop at full speed.
    @Test func aTerminalThatGoesAwayWithoutSIGHUPEndsTheProgram() throws {
        let pty = try PseudoTerminal(Binaries.path("TerminalDemo"), [], rows: 10, columns: 60, controlling: false)
        defer { pty.stop() }
        #expect(pty.time(until: "last: none") != nil)
        pty.hangUp()
        let status = try #require(pty.exitStatus(timeout: 10), "still running 10 s after its terminal went away")
        #expect(status & 0x7F == SIGHUP, "ended with status \(status), not by SIGHUP")
    }

    /// The same for the outliner, which waits on its terminal and on the store's changes together (a poll of
    /// both): it ends, and what was added before is kept.
    @Test func theOutlinerEndsWhenItsTerminalGoesAwayWithoutSIGHUP() throws {
        let dir = TemporaryDirectory("hang-up")
        let db = dir.path("o.sqlite")
        let pty = try PseudoTerminal(
            Binaries.path("burrow"), ["--db", db], rows: 12, columns: 60, environment: ["XDG_CONFIG_HOME": dir.path("config")],
            controlling: false)
        defer { pty.stop() }
        #expect(pty.time(until: "?: help") != nil, "no first frame")
        #expect(pty.time(afterTyping: "aKept\r", until: "Kept") != nil, "the add was not drawn")
        pty.hangUp()
        let status = try #require(pty.exitStatus(timeout: 10), "still running 10 s after its terminal went away")
        #expect(status & 0x7F == SIGHUP, "ended with status \(status), not by SIGHUP")
        let (listed, out, _) = try Binaries.run("burrow", ["ls", "--db", db])
        #expect(listed == 0 && out.contains("Kept"), "burrow ls: \(out)")
    }

    /// The demo on the benchmark's pseudo-terminal, its first frame drawn, and a second, non-blocking reader
    /// of the device standing for the shell. `answers`: the terminal holds its answers (else it never answers).
    private func demoWithShellReader(answers: Bool) throws -> (PseudoTerminal, Int32) {
        let pty = try PseudoTerminal(Binaries.path("TerminalDemo"), [], rows: 10, columns: 60, answersCursorQueries: answers)
        pty.holdsAnswers = true
        let shell = open(pty.deviceName, O_RDWR | O_NOCTTY | O_NONBLOCK)
        guard shell >= 0 else {
            pty.stop()
            throw PseudoTerminal.Failure("cannot open \(pty.deviceName)")
        }
        guard pty.time(until: "last: none") != nil else {
            close(shell)
            pty.stop()
            throw PseudoTerminal.Failure("no first frame")
        }
        return (pty, shell)
    }

    /// Waits for the demo to end by itself, then reads what it left unread: exactly `expected`.
    private func expectLeftForTheShell(
        _ pty: PseudoTerminal, _ shell: Int32, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(pty.time(until: "terminal-demo: bye") != nil, sourceLocation: sourceLocation)
        #expect(pty.exitStatus() == 0, sourceLocation: sourceLocation)
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = read(shell, &buffer, buffer.count)
        let left = n > 0 ? String(decoding: buffer[..<n], as: UTF8.self) : ""
        // Typed while the terminal was raw, the bytes stay as typed (the carriage return too).
        #expect(left == expected, "left for the shell: \(left.debugDescription)", sourceLocation: sourceLocation)
    }

    @Test func refusesAnUnknownTerminalTypeLeavingTheTerminalAlone() throws {
        let tmux = try startDemo(environment: ["TERM": "no-such-terminal"])
        let screen = try #require(tmux.waitFor(text: "exit="))
        #expect(screen.joined(separator: " ").contains("unknown terminal type “no-such-terminal”"))
        #expect(screen.contains("exit=1"))
        try expectRestored(tmux)
    }

    /// `dumb` is a known terminal type, but one that cannot move the cursor: refused like an unknown one,
    /// before anything is written or any mode is changed.
    @Test func refusesATerminalThatCannotMoveTheCursorLeavingTheTerminalAlone() throws {
        let tmux = try startDemo(environment: ["TERM": "dumb"])
        let screen = try #require(tmux.waitFor(text: "exit="))
        #expect(screen.joined(separator: " ").contains("terminal type “dumb” cannot move the cursor"), "\(screen)")
        #expect(screen.contains("exit=1"))
        #expect(screen.first?.hasPrefix("terminal-demo: ") == true, "something was drawn before the refusal: \(screen)")
        try expectRestored(tmux)
    }

    @Test func refusesWhenNotATerminal() throws {
        let (status, out, err) = try Binaries.run("TerminalDemo")
        #expect(status == 1)
        #expect(out.isEmpty)
        #expect(err.contains("must be a terminal"))
    }
}
