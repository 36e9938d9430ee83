import TerminalKit

/// Which key runs which command, in each context (``KeyContext``), as data: the help overlay and
/// `docs/KEYMAP.md` are generated from it, so they cannot drift from what the keys do.
///
/// For example: `Keymap.default.command(for: .character("j"))` is `.moveDown`, and
/// `Keymap.default.command(for: .enter, in: .search)` is `.confirm`.
public struct Keymap: Sendable {
    /// A titled group of bindings of one context, in the order help shows them.
    public struct Section: Sendable {
        public let title: String
        public let context: KeyContext
        public let bindings: [KeyBinding]

        public init(_ title: String, _ context: KeyContext, _ bindings: [KeyBinding]) {
            self.title = title
            self.context = context
            self.bindings = bindings
        }

        /// A section of the list's keys.
        public init(_ title: String, _ bindings: [KeyBinding]) {
            self.init(title, .browse, bindings)
        }
    }

    /// Every section, of every context, in the order help shows them.
    public let sections: [Section]
    private let lookup: [KeyContext: [[Key]: Command]]
    /// Every proper start of a sequence of several keys (`z` of `zo`), per context: such a key waits for the next.
    private let prefixes: [KeyContext: Set<[Key]>]
    /// The first label of the first binding of each command, per context: the status line asks for some on
    /// every frame, and searching the sections each time was a tenth of a key's frame.
    private let labels: [KeyContext: [Command: String]]

    /// A keymap from sections; a key bound twice in one context keeps its first binding.
    public init(sections: [Section]) {
        self.sections = sections
        var lookup: [KeyContext: [[Key]: Command]] = [:]
        var prefixes: [KeyContext: Set<[Key]>] = [:]
        var labels: [KeyContext: [Command: String]] = [:]
        for section in sections {
            for binding in section.bindings {
                if labels[section.context]?[binding.command] == nil, let label = binding.labels.first {
                    labels[section.context, default: [:]][binding.command] = label
                }
                for sequence in binding.sequences {
                    if lookup[section.context, default: [:]][sequence] == nil { lookup[section.context, default: [:]][sequence] = binding.command }
                    for n in 1..<max(1, sequence.count) { prefixes[section.context, default: []].insert(Array(sequence.prefix(n))) }
                }
            }
        }
        self.lookup = lookup
        self.prefixes = prefixes
        self.labels = labels
    }

    /// The sections of one context.
    public func sections(in context: KeyContext) -> [Section] { sections.filter { $0.context == context } }

    /// The command bound to `key` alone while `context` has the keys (looked up along its chain), if any.
    public func command(for key: Key, in context: KeyContext = .browse) -> Command? { command(for: [key], in: context) }

    /// The command bound to the keys pressed so far while `context` has the keys, if they make a whole binding.
    public func command(for sequence: [Key], in context: KeyContext = .browse) -> Command? {
        for c in context.chain {
            if let command = lookup[c]?[sequence] { return command }
        }
        return nil
    }

    /// True when `sequence` starts a binding of several keys in `context`'s chain (and so waits for the next key).
    public func isPrefix(_ sequence: [Key], in context: KeyContext = .browse) -> Bool {
        context.chain.contains { prefixes[$0]?.contains(sequence) == true }
    }

    /// The first key bound to `command` in `context`'s chain, as people read it (for hints: "a: add").
    public func label(for command: Command, in context: KeyContext = .browse) -> String? {
        for c in context.chain {
            if let label = labels[c]?[command] { return label }
        }
        return nil
    }

    /// Every binding of `context` itself (not its chain), in order.
    public func bindings(in context: KeyContext) -> [KeyBinding] { sections(in: context).flatMap(\.bindings) }

    /// Every binding of the list (browsing), in order.
    public var bindings: [KeyBinding] { bindings(in: .browse) }
}
