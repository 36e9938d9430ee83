/// A terminal that can be lent to another program (an editor) and taken back: its modes restored for the
/// other program, then set up again and the screen redrawn in full.
///
/// For example: `try terminal.handOver { try runEditor(on: file) }`.
public protocol TerminalHandover: AnyObject {
    /// Gives the terminal to whatever `body` runs, and takes it back when `body` returns or throws.
    func handOver<T>(_ body: () throws -> T) rethrows -> T
}
