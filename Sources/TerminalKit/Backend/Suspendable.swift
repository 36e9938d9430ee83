/// A terminal whose program can be stopped the way a shell stops a job (Ctrl-Z): its modes restored for the
/// shell, the process stopped, and, once continued (`fg`), the terminal set up again for a full redraw.
///
/// For example: `(input as? any Suspendable)?.suspend()`.
public protocol Suspendable: AnyObject {
    /// Stops the process until the shell continues it, the terminal handed back meanwhile.
    func suspend()
}
