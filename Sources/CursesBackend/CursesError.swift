/// Why the full-screen terminal could not be started. The terminal is left as it was in every case.
public enum CursesError: Error, Equatable, CustomStringConvertible {
    /// Standard input or output is not a terminal (a pipe, a file, a cron job).
    case notATerminal
    /// `TERM` is unset or names a terminal with no terminfo description.
    case unknownTerminal(String)
    /// `TERM` names a terminal that cannot move the cursor (`dumb`, a printing terminal).
    case cannotAddressCursor(String)
    /// ncurses refused to start for another reason.
    case cannotStart(String)

    public var description: String {
        switch self {
        case .notATerminal:
            return "standard input and output must be a terminal for the full-screen outliner (use a subcommand for scripts)"
        case .unknownTerminal(let name) where name.isEmpty:
            return "the TERM environment variable is not set, so the terminal type is unknown"
        case .unknownTerminal(let name):
            return "unknown terminal type “\(name)” (no terminfo entry; try TERM=xterm-256color)"
        case .cannotAddressCursor(let name):
            return
                "terminal type “\(name)” cannot move the cursor, which the full-screen outliner needs (try TERM=xterm-256color, or use a subcommand)"
        case .cannotStart(let why):
            return "cannot start the terminal: \(why)"
        }
    }
}
