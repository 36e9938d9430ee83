import ObjectGraph

/// What a program showing the outline needs of the unit of work under it, so that it reaches the outline
/// through `Outline` alone (never its `context`): the change counter, naming the action being built, the
/// shared undo history, other processes' commits, change observers, and live lists.
extension Outline {
    /// Moves on with every save here and every change taken in from elsewhere: what was read at one value is
    /// current while it has not moved.
    public var generation: Int { context.generation }

    /// Whether the open unit of work changed anything not saved yet: objects may then hold values that
    /// `generation` does not count.
    public var hasUnsavedChanges: Bool { context.hasChanges }

    /// Names the action the open unit of work makes, once it knows what it did ("Delete “A” and 3 sub-items").
    public func setActionName(_ name: String) { context.setActionName(name) }

    /// Records where the open unit of work's action happened, so undoing it from anywhere can go there.
    public func setActionPlace(_ place: ActionPlace) { context.setActionPlace(place) }

    /// The outline's undo history, shared by every process that opens it.
    public var undoHistory: UndoHistory { context.undoHistory }

    /// Undoes the newest action in the shared history, whichever process made it; see `Context.undoAction()`.
    @discardableResult
    public func undoAction() throws -> HistoryEntry? { try context.undoAction() }

    /// Redoes the action undone last; see `Context.redoAction()`.
    @discardableResult
    public func redoAction() throws -> HistoryEntry? { try context.redoAction() }

    /// Takes in what other processes committed since the last look; how many commits there were.
    @discardableResult
    public func poll() throws(StoreError) -> Int { try context.store.poll() }

    /// A watcher of the outline's files, to wake when another process commits (nil for an outline in memory).
    public func makeWatcher() -> StoreWatcher? { context.store.makeWatcher() }

    /// Called now and then while a long write runs (to redraw a busy message); nil calls nothing.
    public var heartbeat: (() -> Void)? {
        get { context.store.heartbeat }
        set { context.store.heartbeat = newValue }
    }

    /// Observes every change this outline saves or takes in; returns a token for ``removeObserver(_:)``.
    public func observeChanges(_ observer: @escaping (ChangeSet) -> Void) -> Int {
        context.observeChanges(includingMerged: true, observer)
    }

    /// Stops an observer.
    public func removeObserver(_ token: Int) { context.removeObserver(token) }

    /// A live list: the rows `request` matches, kept up to date as batches of changes.
    public func controller(for request: FetchRequest) -> ResultsController {
        ResultsController(context: context, request: request)
    }

    /// How many items `request` matches.
    public func count(_ request: FetchRequest) throws(StoreError) -> Int { try context.count(request) }

    /// A read failure kept since the last save where reading could not throw (see `Context.pendingReadFailure`):
    /// the next save fails with it, writing nothing.
    public var pendingReadFailure: StoreError? { context.pendingReadFailure }
}
