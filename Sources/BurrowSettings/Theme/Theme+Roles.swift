import TerminalKit

extension Theme {
    /// A part of the screen a config file can colour, by the name it uses there (`[colors]`).
    public enum Role: String, CaseIterable, Sendable {
        case breadcrumbs, placeholder, prompt, hint, done, count, status, error, helpTitle, helpKeys, selection, state, overdue

        /// What the role colours, for `burrow config default`.
        public var summary: String {
            switch self {
            case .breadcrumbs: "the path at the top"
            case .placeholder: "the empty capture line"
            case .prompt: "the capture and search prompts"
            case .hint: "hints, the detail pane's labels"
            case .done: "titles of done items"
            case .count: "sub-item counts and the note mark"
            case .status: "the status line"
            case .error: "the status line with a problem"
            case .helpTitle: "the help overlay's title"
            case .helpKeys: "the help overlay's section titles"
            case .selection: "the selected row"
            case .state: "a task's state (TODO) and priority"
            case .overdue: "the date of a task due or planned before today"
            }
        }

        var keyPath: WritableKeyPath<Theme, Style> {
            switch self {
            case .breadcrumbs: \.breadcrumbs
            case .placeholder: \.placeholder
            case .prompt: \.prompt
            case .hint: \.hint
            case .done: \.done
            case .count: \.count
            case .status: \.status
            case .error: \.error
            case .helpTitle: \.helpTitle
            case .helpKeys: \.helpKeys
            case .selection: \.selection
            case .state: \.state
            case .overdue: \.overdue
            }
        }
    }

    /// The style of `role`.
    public subscript(role: Role) -> Style {
        get { self[keyPath: role.keyPath] }
        set { self[keyPath: role.keyPath] = newValue }
    }

    /// This theme with `role` in colours. A role shown in reverse video (the status line, the selection) keeps
    /// it while only a foreground is given, which then colours its bar; with a background, the colours are
    /// shown as given instead.
    public func colored(_ role: Role, foreground: Color?, background: Color?) -> Theme {
        var theme = self
        var style = theme[role]
        if let background {
            if style.attributes.contains(.reverse) {
                style.attributes.remove(.reverse)
                style.foreground = .default
            }
            style.background = background
        }
        if let foreground { style.foreground = foreground }
        theme[role] = style
        return theme
    }

    /// This theme with every colour dropped and the attributes kept, for `NO_COLOR`. A role that gave up
    /// reverse video for its colours gets it back, so the selection and status line still stand out.
    public var withoutColors: Theme {
        var theme = self
        for role in Role.allCases {
            var style = theme[role]
            let hadColor = style.foreground != .default || style.background != .default
            style.foreground = .default
            style.background = .default
            if hadColor, Theme.standard[role].attributes.contains(.reverse) { style.attributes.insert(.reverse) }
            theme[role] = style
        }
        return theme
    }
}
