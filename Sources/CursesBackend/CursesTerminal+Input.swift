import CNCursesW
import CTerminalGuard
import Foundation
import TerminalKit

extension CursesTerminal {
    /// Waits in slices of at most this long, so a signal's flag is seen promptly even if a read is restarted.
    private static let slice = 100

    public func nextEvent(timeout: Duration?) -> InputEvent? {
        nextEvent(timeout: timeout, wakingOn: nil)
    }

    /// Waits for a key (or a signal) as `nextEvent(timeout:)` does, and also returns nil once `fileDescriptor`
    /// is readable. Keys ncurses already holds come first; then the terminal and the descriptor are waited on
    /// together, so a change elsewhere wakes the loop at once rather than after a slice.
    public func nextEvent(timeout: Duration?, wakingOn fileDescriptor: Int32?) -> InputEvent? {
        if !pending.isEmpty { return pending.removeFirst() }
        var remaining = timeout.map { Self.milliseconds($0) }
        while true {
            if let event = signalEvent() { return event }
            let wait = min(remaining ?? Self.slice, Self.slice)
            var result = Read.none
            if let fd = fileDescriptor {
                // Keys already read by ncurses (the rest of a paste, say) would not wake poll(), nor would a
                // resize it has noted. Before the wait, so not between a key and its frame.
                descriptorMayBeReady = true
                result = read(timeoutMilliseconds: 0)
                if case .none = result {
                    var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0), pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
                    let ready = poll(&fds, 2, Int32(wait))
                    if ready >= 0 { descriptorMayBeReady = fds[1].revents != 0 }
                    if fds[0].revents != 0 {
                        result = read(timeoutMilliseconds: 0)
                        if case .none = result, Self.hangUpPolled(fds[0].revents) { result = .hungUp }
                    } else if fds[1].revents != 0 {
                        return signalEvent()
                    }
                }
            } else {
                result = read(timeoutMilliseconds: wait)
            }
            if case .none = result {
                if let event = signalEvent() { return event }
                if let r = remaining {
                    remaining = r - wait
                    if r - wait <= 0 { return nil }
                }
            } else if let event = event(for: result) {
                return event
            }
        }
    }

    /// Reads the answers to the cluster question still on their way before the terminal goes back to the shell
    /// (on exit or suspend): unread, they would be typed there as `^[[2;3R`. They are waited for until a second
    /// after asking, as a terminal that answers at all answers within its round trip, and never after: a
    /// terminal that does not answer keeps what is typed ahead of it for the shell. Reading ends with the last
    /// answer; a key read before it waits in `pending`.
    func takeAnswersOnTheirWay() {
        guard clusters.state == .asked, let askedAt else { return }
        let deadline = askedAt + .seconds(1)
        while clusters.state == .asked {
            // Checked before each read, so keys arriving all the while cannot hold the wait open.
            let wait = Self.milliseconds(ContinuousClock.now.duration(to: deadline))
            guard wait > 0 else {
                self.askedAt = nil
                return
            }
            let result = read(timeoutMilliseconds: min(wait, Self.slice))
            if case .hungUp = result {
                self.askedAt = nil
                return
            }
            if let event = event(for: result) { pending.append(event) }
        }
    }

    /// The event a read starts, reading the rest of it (an escape sequence, a paste); nil for none.
    private func event(for result: Read) -> InputEvent? {
        switch result {
        case .none: nil
        case .character(let scalar) where scalar.value == 0x1B: escapeEvent()
        case .character(let scalar): .key(KeyDecoder.scalar(scalar))
        case .code(let code): event(forCode: code)
        // As SIGHUP: finish the work at hand and end (the terminal cannot be drawn on or read again).
        case .hungUp: .terminate(signal: SIGHUP)
        }
    }

    private enum Read {
        case none
        case character(Unicode.Scalar)
        case code(Int32)
        /// The terminal went away: its other end closed, and nothing is left to read.
        case hungUp
    }

    private func read(timeoutMilliseconds: Int) -> Read {
        wtimeout(stdscr, Int32(timeoutMilliseconds))
        var value: wint_t = 0
        switch wget_wch(stdscr, &value) {
        case KEY_CODE_YES: return .code(Int32(bitPattern: value))
        case OK: return Unicode.Scalar(value).map { .character($0) } ?? .none
        // Checked after a wait only: a look with no wait (before each poll, between a key and its frame)
        // costs no system call, and the poll that follows it reports a hang-up itself.
        default: return timeoutMilliseconds > 0 && Self.inputHungUp() ? .hungUp : .none
        }
    }

    /// What a poll of the terminal that found it ready says: it has hung up (Linux only, as `inputHungUp`).
    private static func hangUpPolled(_ revents: Int16) -> Bool {
        #if os(Linux)
            return revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
        #else
            return false
        #endif
    }

    /// True when the terminal's other end has closed. A hang-up sends SIGHUP only to the session whose
    /// controlling terminal it is; a program that merely holds the terminal (started without a session of its
    /// own on it) gets reads that fail at once, and waited on them in a loop at full speed for good. Linux
    /// only: macOS's `poll` does not take devices, and would answer `POLLNVAL` for a terminal that is fine.
    private static func inputHungUp() -> Bool {
        #if os(Linux)
            var input = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            guard poll(&input, 1, 0) == 1 else { return false }
            return hangUpPolled(input.revents)
        #else
            return false
        #endif
    }

    private func signalEvent() -> InputEvent? {
        let signal = terminal_guard_take_signal()
        switch signal {
        case 0: return nil
        case SIGTSTP:
            suspend()
            return .resumed
        default:
            return .terminate(signal: signal)
        }
    }

    private func event(forCode code: Int32) -> InputEvent? {
        switch code {
        case KEY_RESIZE:
            // ncurses repaints its (blank) screen at the next refresh after a resize, and reading a key
            // refreshes: done now, before the frame that paints every cell at the new size, not over it.
            wrefresh(stdscr)
            updateSize()
            return .resize(size)
        case KEY_MOUSE:
            var m = MEVENT()
            guard getmouse(&m) == OK else { return nil }
            let position = Position(x: Int(m.x), y: Int(m.y))
            let modifiers = Key.Modifiers(rawValue: UInt8(burrow_mouse_modifiers(m.bstate)))
            switch burrow_mouse_button(m.bstate) {
            case 4: return .mouse(MouseEvent(kind: .wheelUp, position: position, modifiers: modifiers))
            case 5: return .mouse(MouseEvent(kind: .wheelDown, position: position, modifiers: modifiers))
            case let b where b > 0: return .mouse(MouseEvent(kind: .press(button: Int(b)), position: position, modifiers: modifiers))
            default: return nil
            }
        case Self.pasteStart:
            return .paste(readPaste())
        case Self.pasteEnd:
            return nil
        default:
            return keyTable.key(for: code).map { .key($0) }
        }
    }

    /// Reads pasted text up to the end marker (or until the terminal goes quiet, if the marker never comes).
    private func readPaste() -> String {
        var text = ""
        while true {
            switch read(timeoutMilliseconds: 500) {
            case .none, .hungUp: return text
            case .code(Self.pasteEnd): return text
            case .code: continue
            case .character(let scalar):
                // Terminals send line breaks in a paste as carriage returns.
                text.unicodeScalars.append(scalar.value == 0x0D ? "\n" : scalar)
            }
        }
    }

    /// After ESC: Esc alone, Alt and a key, or an escape sequence the terminal description does not list.
    private func escapeEvent() -> InputEvent? {
        switch read(timeoutMilliseconds: Int(Self.escapeDelay)) {
        case .none:
            return .key(.escape)
        case .hungUp:
            return .terminate(signal: SIGHUP)
        case .code(let code):
            guard var key = keyTable.key(for: code) else { return event(forCode: code) }
            key.modifiers.insert(.alt)
            return .key(key)
        case .character(let scalar) where scalar == "[" || scalar == "O":
            return sequenceEvent(introducer: scalar)
        case .character(let scalar):
            return .key(KeyDecoder.alt(scalar))
        }
    }

    /// Reads the rest of `ESC [ …` or `ESC O x`; unknown sequences are dropped rather than typed.
    private func sequenceEvent(introducer: Unicode.Scalar) -> InputEvent? {
        var parameters = ""
        while true {
            guard case .character(let scalar) = read(timeoutMilliseconds: Int(Self.escapeDelay)) else {
                // Nothing followed: it was Alt-[ or Alt-O typed by the user.
                return parameters.isEmpty ? .key(KeyDecoder.alt(introducer)) : nil
            }
            let v = scalar.value
            if introducer == "O" { return KeyDecoder.ss3(final: Character(scalar)).map { .key($0) } }
            if v >= 0x40 && v <= 0x7E {
                if parameters == "200" && scalar == "~" { return .paste(readPaste()) }
                if scalar == "R", let report = ClusterProbe.cursorReports(in: Array("\u{1B}[\(parameters)R".utf8)).first,
                    clusters.take(row: report.row, column: report.column)
                {
                    // The last answer: what was drawn as stand-ins may now be drawn whole, so all is drawn again.
                    guard clusters.state == .answered, drewStandIn else { return nil }
                    drewStandIn = false
                    return .resize(size)
                }
                return KeyDecoder.csi(parameters: parameters, final: Character(scalar)).map { .key($0) }
            }
            guard parameters.count < 32 else { return nil }
            parameters.unicodeScalars.append(scalar)
        }
    }

    private static func milliseconds(_ d: Duration) -> Int {
        let (seconds, attoseconds) = d.components
        return max(0, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }
}
