import TerminalKit

extension Color {
    /// The colour names a config file may use, in palette order: the basic eight, their bright forms, and the
    /// terminal's own colour.
    static let configNames = [
        "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
        "bright-black", "bright-red", "bright-green", "bright-yellow", "bright-blue", "bright-magenta", "bright-cyan",
        "bright-white", "default"
    ]

    /// The colour a config file names: `"red"`, `"bright-black"`, `"default"` (any case); nil for another name.
    init?(configName: String) {
        let name = configName.lowercased()
        if name == "default" {
            self = .default
        } else if let n = Self.configNames.firstIndex(of: name) {
            self = .palette(UInt8(n))
        } else {
            return nil
        }
    }

    /// The colour as a config file writes it: a name, or its palette number.
    var configValue: String {
        switch self {
        case .default: "\"default\""
        case .palette(let n): n < 16 ? "\"\(Self.configNames[Int(n)])\"" : "\(n)"
        }
    }
}
