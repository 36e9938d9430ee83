import Foundation

/// Where the outline database lives: `--db`, then `BURROW_DB`, then the config file's `database`, then
/// `$XDG_DATA_HOME/burrow/outline.sqlite` (`~/.local/share/burrow/outline.sqlite`).
public enum OutlineLocation {
    /// The database path to use, with its folder created when it is the default one.
    ///
    /// ```swift
    /// let path = try OutlineLocation.resolve(explicit: options.db)
    /// ```
    public static func resolve(
        explicit: String?, configured: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
        creatingFolder: Bool = true
    ) throws -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let env = environment["BURROW_DB"], !env.isEmpty { return env }
        // The configured one is used as it is: its folder is the user's to make.
        if let configured, !configured.isEmpty { return configured }
        let base: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        }
        let dir = base + "/burrow"
        if creatingFolder { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        return dir + "/outline.sqlite"
    }
}
