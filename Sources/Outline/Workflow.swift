/// The task states an outline uses, in order: the not-done ones, then the done ones. `TODO` and `DONE`
/// unless the outline's own settings (the top item's note, where an Org file's `#+TODO:` lines go on import)
/// name others, as Org reads them.
///
/// For example: `#+TODO: TODO NEXT WAIT | DONE CANCELLED` is `Workflow(todo: ["TODO", "NEXT", "WAIT"], done: ["DONE", "CANCELLED"])`.
public struct Workflow: Equatable, Sendable {
    public let todo: [String]
    public let done: [String]

    public init(todo: [String], done: [String]) {
        self.todo = todo
        self.done = done
    }

    /// `TODO` → `DONE`.
    public static let standard = Workflow(todo: ["TODO"], done: ["DONE"])

    /// The workflow the `#+TODO:` lines of `settings` name (the standard one when they name none).
    public init(settings: String?) {
        self.init(settings: settings.map { [$0] } ?? [])
    }

    /// The workflow the `#+TODO:` lines of all of `settings` name, as one Org file's lines would.
    init(settings: [String]) {
        var keywords = OrgKeywords()
        for note in settings { keywords.scan(note: note) }
        self.init(
            todo: keywords.todo.map { String(decoding: $0, as: UTF8.self) }, done: keywords.done.map { String(decoding: $0, as: UTF8.self) })
    }

    /// Every state, not done first.
    public var states: [String] { todo + done }

    /// The state after `state` when cycling: none, each state in order, none again. A state the workflow does
    /// not name (from another file) goes to none.
    public func next(after state: String?) -> String? {
        guard let state else { return states.first }
        guard let k = states.firstIndex(of: state), k + 1 < states.count else { return nil }
        return states[k + 1]
    }

    /// Whether `state` is a done one.
    public func isDone(_ state: String) -> Bool { done.contains(state) }
}
