import BurrowApp
import BurrowCommands
import BurrowConfig
import CursesBackend
import Foundation
import Logging
import Outline
import OutlineSync
import TerminalKit

/// Wires the full-screen outliner: logging to a file, the outline, the ncurses terminal, the run loop.
enum Outliner {
    /// Runs the outliner on the database at `path` and returns the exit status; a failure before the screen
    /// is taken over (a bad database, not a terminal) is one line on stderr and status 1.
    static func run(databasePath path: String) throws -> Int32 {
        let logger = bootstrapLogging()
        // A store error is a user-facing error: `BurrowMain.run` reports it.
        let outline = try Outline(path: path)
        let curses: CursesTerminal
        do {
            curses = try CursesTerminal.start()
        } catch {
            throw UserError(error.description)
        }
        logger.info("started on \(path)")
        // A bad config file never stops the outliner: what is wrong keeps its default, and the first problem shows.
        let configPath = Configuration.path()
        let config = Configuration.load(from: configPath)
        for problem in config.problems { logger.warning("config: \(problem.located(in: configPath))") }
        let signal: Int32?
        do {
            let app = try App(outline: outline, keymap: config.keymap, theme: config.theme, settings: config.settings, logger: logger)
            if let first = config.problems.first {
                let more = config.problems.count > 1 ? " (and \(config.problems.count - 1) more: burrow config check)" : ""
                app.showProblem(first.located(in: "config.toml") + more)
            }
            // BURROW_NO_WATCH=1: polling on the timer alone, as on a file system without notifications (the
            // live benchmark's baseline).
            let watches = ProcessInfo.processInfo.environment["BURROW_NO_WATCH"] != "1"
            // A shared outline is kept in step with its server while the outliner runs.
            let shared: Bool
            do {
                shared = try Replicator(outline: outline).status().address != nil
            } catch {
                shared = false
                app.showProblem("Cannot read whether this outline is shared (\(error)): it is not kept in step with its server")
            }
            let sync = shared ? SyncLoop(path: path, url: config.syncURL) : nil
            sync?.start()
            app.sharing = sync
            signal = AppRuntime.run(app, terminal: Terminal(backend: curses), input: curses, watchesStore: watches)
            // A round under way finishes (its answer kept) unless the server keeps it waiting.
            sync?.stop()
        } catch {
            curses.stop()
            logger.error("stopped by \(error)")
            throw UserError("\(error)")
        }
        // Every change is saved already; this moves them from the write-ahead log into the file, so a copy
        // of the file alone is the whole outline.
        outline.checkpoint()
        if let signal {
            logger.info("ended by signal \(signal)")
            curses.stop(reraising: signal)
        }
        curses.stop()
        logger.info("quit")
        return 0
    }

    /// Log lines go to a file (never to the terminal ncurses owns); without a writable log file, nowhere.
    private static func bootstrapLogging() -> Logger {
        let sink = try? FileLogHandler.Sink(path: FileLogHandler.defaultPath())
        LoggingSystem.bootstrap { label in
            guard let sink else { return SwiftLogNoOpLogHandler() }
            var handler = FileLogHandler(label: label, sink: sink)
            handler.logLevel = ProcessInfo.processInfo.environment["BURROW_LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .info
            return handler
        }
        return Logger(label: "burrow")
    }
}
