/// Where a key is read: browsing the list, or one of the editors and panels. Each has its own section of the
/// keymap (its table in the config file: `[keys]` for browsing, `[keys.search-line]` and so on), so that a
/// key rebound there reaches it and `?` lists it.
public enum KeyContext: String, CaseIterable, Sendable {
    /// The list (`[keys]`).
    case browse
    /// Editing text, in every editor: cursor and deleting keys (`[keys.text]`).
    case text
    /// The quick-capture line, renaming and inserting (`[keys.editors]`).
    case editor = "editors"
    /// The search line, `/` (`[keys.search-line]`).
    case search = "search-line"
    /// The move picker, `M` (`[keys.move-picker]`).
    case picker = "move-picker"
    /// The note editor, `A` (`[keys.note-editor]`).
    case note = "note-editor"
    /// A visual range, `v` (`[keys.visual-range]`): its own keys first, then the list's.
    case visual = "visual-range"
    /// The help overlay, `?` (`[keys.help-overlay]`).
    case help = "help-overlay"

    /// The contexts a key is looked up in while this one has the keys, the first binding winning: an
    /// editor's own keys, then the text keys; a range's own keys, then the list's.
    public var chain: [KeyContext] { Self.chains[ordinal] }

    /// Each case's chain, made once (every key looks its context's chain up).
    private static let chains: [[KeyContext]] = allCases.map { context in
        switch context {
        case .editor, .search, .picker, .note: [context, .text]
        case .visual: [.visual, .browse]
        case .browse, .text, .help: [context]
        }
    }

    /// The config file's table for this context's keys.
    public var table: String { self == .browse ? "keys" : "keys.\(rawValue)" }
}
