import TerminalKit

/// The outliner's event loop: draw a frame, wait for an event, a change to the store's files (a `StoreWatcher`)
/// or the poll interval, handle it, and look for other processes' commits at once when the files changed, and
/// once a poll interval has passed since the last poll (keys arriving or not; for file systems that give no
/// notifications), so a change made elsewhere appears without a key press.
///
/// For example: `let signal = AppRuntime.run(app, terminal: Terminal(backend: curses), input: curses)`.
public enum AppRuntime {
    /// Runs until the user quits or a termination signal arrives; returns that signal, if one ended it.
    /// With the store's files watched, the fallback poll (for file systems that give no notifications) runs
    /// every `watchedPollInterval`: an idle outliner wakes once a second, not ten times. Events already waiting
    /// are handled together before the next frame, for at most `runBudget`.
    public static func run(
        _ app: App, terminal: Terminal, input: any InputSource, pollInterval: Duration = .milliseconds(100),
        watchedPollInterval: Duration = .seconds(1), watchesStore: Bool = true, runBudget: Duration = .milliseconds(30)
    ) -> Int32? {
        let recheckInterval: Duration = .milliseconds(4)
        let clock = ContinuousClock()
        var lastPoll = clock.now
        var signal: Int32? = nil
        app.start()
        app.busyDisplay = { [weak app] text in terminal.update { app?.renderBusy(text, into: &$0) } }
        defer { app.busyDisplay = nil }
        let watcher = watchesStore ? app.outline.makeWatcher() : nil
        // Looks left after a wake that found no commit (see below).
        var rechecks = 0
        // Drawing changes nothing in the app, so it learns the size as it learns every later one: as an event.
        app.handle(.resize(terminal.size))
        var needsFrame = true
        while app.isRunning {
            if needsFrame { terminal.draw { app.render(into: &$0) } }
            let fallback = watcher != nil && !app.wantsTicks ? watchedPollInterval : pollInterval
            var timeout = min(fallback, max(.zero, lastPoll + fallback - clock.now))
            if rechecks > 0 { timeout = min(timeout, recheckInterval) }
            // Work left for after the frame (a search's exact count) is done when no key is waiting.
            let after = app.hasWorkAfterFrame
            if after { timeout = .zero }
            var event = input.nextEvent(timeout: timeout, wakingOn: watcher?.fileDescriptor)
            if event == nil, after { app.workAfterFrame() }
            // Every key already waiting is handled before the next frame: a frame per key of a held or pasted
            // run would only be drawn over. Bounded by count and by time (`runBudget`), so a long paste, or
            // held keys that each commit slowly, still show progress and let other processes' changes in. Not
            // past a key that hands the terminal over or asks for a redraw: the keys after it are the editor's,
            // or meant for the screen it brings.
            let runStarted = clock.now
            var taken = 0
            while let e = event {
                switch e {
                case .resize, .resumed: terminal.invalidate()
                case .terminate(let s): signal = s
                default: break
                }
                app.handle(e)
                // `y`: the copied text goes to the terminal between frames.
                if let clipboard = terminal.backend as? any ClipboardWriter { app.deliverClipboard(to: clipboard) }
                taken += 1
                if handOver(app: app, terminal: terminal, input: input) { break }
                guard app.isRunning, taken < maxEventsPerFrame, clock.now - runStarted < runBudget else { break }
                event = input.nextEvent(timeout: .zero)
            }
            let handedOver = taken == 0 && handOver(app: app, terminal: terminal, input: input)
            // Not read when the wait saw nothing there: a key's frame waits for no read that would say so.
            let woke = input.descriptorMayBeReady && watcher?.drain() == true
            var polled = false
            if woke || rechecks > 0 || clock.now - lastPoll >= fallback {
                polled = true
                let found = app.poll()
                lastPoll = clock.now
                // A wake can come while a commit is being written: its log pages are in the file (that woke us)
                // but the log's index, mapped memory, is not yet (which wakes nothing), so the poll finds nothing
                // and the commit would wait for the fallback poll, a second later (seen with a sync that keeps
                // its connection open). Look again a few times, shortly.
                if found {
                    rechecks = 0
                } else if woke {
                    rechecks = 5
                } else if rechecks > 0 {
                    rechecks -= 1
                }
            }
            // A wake with nothing for the app (the watcher told of another file in the store's folder: a log
            // written beside it, a sync client's files) changes nothing on screen, and gets no frame: a store
            // beside a file written often rendered a frame per write (2026-12-02).
            needsFrame = taken > 0 || after || polled || handedOver
        }
        return signal
    }

    /// The most events handled between two frames.
    static let maxEventsPerFrame = 256

    /// Carries out what the app asked of the terminal (its request, taken here, and a note waiting for the
    /// editor): stop as a shell's job, draw everything again, or lend the terminal to the note's editor. True
    /// when it asked for any of them.
    private static func handOver(app: App, terminal: Terminal, input: any InputSource) -> Bool {
        let request = app.takeTerminalRequest()
        let asked = request != nil || app.wantsTerminal
        switch request {
        case .suspend:
            // Ctrl-Z: stopped as a shell's job; after `fg` every cell is drawn again, at the size now.
            if let stoppable = input as? any Suspendable { stoppable.suspend() }
            terminal.invalidate()
            app.handle(.resumed)
            app.handle(.resize(terminal.size))
        case .redraw: terminal.invalidate()
        case nil: break
        }
        // `E`: the editor gets the terminal (the input side is the terminal), then the screen is redrawn.
        if app.wantsTerminal, let lender = input as? any TerminalHandover {
            app.editPendingNote(on: lender)
            terminal.invalidate()
            // The terminal may have been resized while the editor had it.
            app.handle(.resize(terminal.size))
        }
        return asked
    }
}
