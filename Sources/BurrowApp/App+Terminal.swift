import TerminalKit

/// What the outliner asks of the terminal itself, which only the run loop holds: to stop the process as a
/// shell's job (Ctrl-Z) or to draw every cell again (Ctrl-L).
public enum TerminalRequest: Sendable, Equatable {
    case suspend, redraw
}

extension App {
    /// The request the last key made, taken once (the run loop acts on it before the next frame).
    public func takeTerminalRequest() -> TerminalRequest? {
        defer { terminalRequest = nil }
        return terminalRequest
    }

    /// Ctrl-Z and Ctrl-L act in every mode, as they do in every terminal program: an open editor keeps its text
    /// and is there again after `fg`. Only keys that type nothing qualify, so a rebinding to a letter cannot
    /// take that letter from an editor.
    func terminalKey(_ key: TerminalKit.Key) -> Bool {
        guard key.text == nil, let command = keymap.command(for: key), command == .suspend || command == .redraw else { return false }
        terminalRequest = command == .suspend ? .suspend : .redraw
        return true
    }
}
