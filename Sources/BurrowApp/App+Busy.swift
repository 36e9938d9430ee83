import ObjectGraph
import TerminalKit

extension App {
    /// Runs a long action (deleting or restoring thousands of items) with a sign on the status line once it
    /// has run past `busyDelay`: the store's heartbeat, called now and then while it works, redraws just the
    /// status line through `busyDisplay` (the rest of the screen waits for the change to be committed).
    func whileBusy<T>(_ label: String, _ work: () throws -> T) rethrows -> T {
        guard let display = busyDisplay else { return try work() }
        let outline = self.outline
        let clock = ContinuousClock()
        let start = clock.now
        var shown = start
        var ticks = 0
        let delay = busyDelay, every = busyInterval
        let before = outline.heartbeat
        outline.heartbeat = { [weak self] in
            guard let self else { return }
            let now = clock.now
            guard now - start >= delay, ticks == 0 || now - shown >= every else { return }
            shown = now
            ticks += 1
            let spinner = App.spinner[ticks % App.spinner.count]
            display(self.busyText(label, spinner: spinner, elapsed: now - start))
        }
        defer { outline.heartbeat = before }
        return try work()
    }

    /// "Delete “big” and 100,000 sub-items… ⠹ 1.2 s".
    func busyText(_ label: String, spinner: Character, elapsed: Duration) -> String {
        let tenths = Int(elapsed / .milliseconds(100))
        return "\(label)… \(spinner) \(tenths / 10).\(tenths % 10) s"
    }

    static let spinner: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    /// Draws a busy message on the status line of `frame` (the last frame sent), leaving the rest as it is.
    public func renderBusy(_ text: String, into frame: inout Frame) {
        let layout = self.layout
        guard !layout.isTooSmall else { return }
        StatusBar(left: Sanitizer.visible(text), right: "", style: theme.status, rightStyle: theme.status)
            .render(into: &frame.buffer, area: layout.status)
    }
}
