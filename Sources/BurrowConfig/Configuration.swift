import BurrowSettings
import Foundation
import ObjectGraph

/// What the config file (`$XDG_CONFIG_HOME/burrow/config.toml`) sets, with every part it does not set or gets
/// wrong at its default, and the problems found, in the order of the file. A missing file is no problem.
///
/// For example:
/// ```swift
/// let config = Configuration.load(from: Configuration.path())
/// let app = try App(outline: outline, keymap: config.keymap, theme: config.theme, settings: config.settings)
/// if let first = config.problems.first { app.showProblem("config.toml:\(first)") }
/// ```
public struct Configuration: Sendable {
    /// The default keymap with the file's `[keys]`.
    public var keymap: Keymap {
        get { fileKeymap ?? Keymap.default }
        set { fileKeymap = newValue }
    }
    /// Set by `[keys]`: a command that reads the file for its history limits never builds the default keymap
    /// (4 % of `burrow add`'s process, a tenth of its own work, when every configuration built it).
    private var fileKeymap: Keymap?
    /// The standard look with the file's `[colors]`, none of them under `NO_COLOR`.
    public var theme = Theme.standard
    /// `hide-done`: done items start hidden.
    public var hideDone = false
    /// `osc52`: copying may also set the system clipboard through the terminal.
    public var osc52 = true
    /// `[history]`: how much undo history the outline keeps (`actions`, `size`).
    public var historyLimits = HistoryLimits.standard
    /// `database`: the outline database when neither `--db` nor `$BURROW_DB` names one (`~/` expanded).
    public var database: String?
    /// `sync-url`: the shared outline's server, password and all, used instead of the address attach kept;
    /// only from a file no one else may read (mode 0600), else refused with a problem.
    public var syncURL: String?
    /// Where `sync-url` is in the file, for the problem when the file's mode refuses it.
    var syncURLPosition: SourcePosition?
    /// What is wrong, first in the file first (a problem with the whole file has no position).
    public var problems: [ConfigProblem] = []

    /// Everything at its default.
    public init() {}

    /// The settings `App` carries for its commands.
    public var settings: AppSettings {
        AppSettings(hideDoneByDefault: hideDone, allowsClipboard: osc52, historyLimits: historyLimits)
    }

    /// Where the config file is: `$XDG_CONFIG_HOME/burrow/config.toml`, else `~/.config/burrow/config.toml`
    /// (an `XDG_CONFIG_HOME` that is not an absolute path is ignored, as the XDG specification says).
    public static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base: String
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        }
        return base + "/burrow/config.toml"
    }

    /// The configuration in `text` (the file's contents); `environment` gives `HOME` for `~/` and `NO_COLOR`.
    public static func parse(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> Configuration {
        ConfigReader(text: text, environment: environment).read()
    }
}
