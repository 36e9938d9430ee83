import Dispatch

/// A context with a connection and a thread of its own, for work that must not hold up the thread that draws:
/// an import, a batch of edits, an indexer. It opens its own `Store` on the same file (SQLite's write-ahead log
/// lets the other connection read while it writes), and every block given to it runs on its thread, in order.
/// What it saves reaches the other stores on the file as commits made elsewhere: their next ``Store/poll()``
/// merges them into their contexts, so their results controllers deliver them as batches. `whenSaved` (called
/// on the background thread after each save) is the place to ask the drawing thread to poll.
///
/// Save in slices (about a thousand objects each): each save is one write transaction, and the drawing thread's
/// next poll takes in everything saved since its last as one batch; a background saving faster than the drawing
/// thread takes slices in makes each poll longer (wait after a save until it was taken in to keep frames short).
///
/// ```swift
/// let background = try BackgroundContext(sharingFileOf: store) { wakeDrawingThread() }
/// try await background.perform { context in
///     for name in names { try context.insert("Color")["name"] = .string(name) }
///     try context.saveWithoutUndo()
/// }
/// try store.poll()   // on the drawing thread: its controllers deliver the new colors
/// ```
///
/// The context never leaves its thread: blocks receive it and may return only `Sendable` values (object IDs,
/// values), as Core Data's `perform` hands out object IDs rather than objects. Each block starts by taking in
/// what was committed elsewhere since the last one, so it works on what is there now.
public final class BackgroundContext: Sendable {
    /// How long a paced context's save waits for the drawing thread's store to take it in, in seconds: a
    /// thread that stopped polling (a program in the background) slows an import to a slice a second, never
    /// stops it.
    public static let pacingTimeout = 1.0

    /// The file the context's own connection is open on.
    public let path: String
    /// The model the context works with.
    public let model: Model
    /// The thread every block runs on, one at a time.
    private let queue: DispatchQueue
    private let confined: Confined

    /// The context and what only its thread may touch. `@unchecked Sendable` because it is read and written
    /// only on `queue` (in `queue.sync` or `queue.async` blocks), which runs one block at a time; `marker` is a
    /// constant any thread may read.
    private final class Confined: @unchecked Sendable {
        var context: Context?
        let marker = DispatchSpecificKey<Bool>()
    }

    /// A background context on the store file at `path` (created or migrated as ``Store/init(path:model:)``
    /// does); `whenSaved` runs on the background thread after each save that wrote something.
    public convenience init(path: String, model: Model, whenSaved: (@Sendable () -> Void)? = nil) throws(StoreError) {
        try self.init(path: path, model: model, pacedTo: nil, whenSaved: whenSaved)
    }

    private init(path: String, model: Model, pacedTo reader: TakenInMark?, whenSaved: (@Sendable () -> Void)?) throws(StoreError) {
        self.path = path
        self.model = model
        queue = DispatchQueue(label: "ObjectGraph.BackgroundContext")
        confined = Confined()
        queue.setSpecific(key: confined.marker, value: true)
        let confined = self.confined
        let opened: Result<Void, StoreError> = queue.sync {
            do {
                let context = Context(store: try Store(path: path, model: model))
                if let whenSaved { _ = context.observeChanges { if !$0.invalidatesAll { whenSaved() } } }
                if let reader {
                    let mine = context.store.takenIn
                    // After `whenSaved` (which may be what wakes the reader): the next slice waits for this one.
                    _ = context.observeChanges {
                        // A reset saves nothing: there is nothing for the reader to take in.
                        if !$0.invalidatesAll { _ = reader.wait(until: mine.lastWritten, timeout: BackgroundContext.pacingTimeout) }
                    }
                }
                confined.context = context
                return .success(())
            } catch {
                return .failure(StoreError.wrap(error, "cannot open a background context", path: path))
            }
        }
        try opened.get()
    }

    /// A background context on the same file as `store`, with its model. Throws `.invalidRequest` for a store
    /// in memory (no second connection can reach it) or one opened for reading only.
    ///
    /// `paced`: each save returns only once `store` has taken it in (its thread's next ``Store/poll()``), or
    /// after ``pacingTimeout`` seconds, or at once when `store` is gone. Each poll then takes in at most one
    /// slice, so a frame never holds more than one slice's batch: an import of 100,000 objects in slices of
    /// a thousand kept every frame of the benchmark's key loop under 16 ms this way (PERFORMANCE.md), where one
    /// saving freely made frames of 85–125 ms. The import takes as many frames as it has slices.
    ///
    /// ```swift
    /// let importer = try BackgroundContext(sharingFileOf: store, paced: true)
    /// ```
    public convenience init(sharingFileOf store: Store, paced: Bool = false, whenSaved: (@Sendable () -> Void)? = nil) throws(StoreError) {
        guard let path = store.path else {
            throw StoreError(.invalidRequest, "a background context needs a store in a file; this one is in memory")
        }
        guard !store.isReadOnly else {
            throw StoreError(.invalidRequest, "a background context saves, and this store was opened for reading only", path: path)
        }
        try self.init(path: path, model: store.model, pacedTo: paced ? store.takenIn : nil, whenSaved: whenSaved)
    }

    /// Runs `body` on the background thread with the context and waits for it; what it throws is rethrown.
    /// Called from a block of this context, it runs at once (no deadlock).
    ///
    /// ```swift
    /// let count = try background.performAndWait { try $0.count(FetchRequest("Color")) }
    /// ```
    public func performAndWait<T: Sendable>(_ body: (Context) throws -> T) throws -> T {
        if DispatchQueue.getSpecific(key: confined.marker) == true { return try run(body) }
        let confined = self.confined
        return try queue.sync { try Self.run(confined, body) }
    }

    /// Runs `body` on the background thread and returns at once; a failure it throws is handed to
    /// `failed` on the background thread (by default it is dropped, as a detached task's would be).
    public func perform(
        _ body: @escaping @Sendable (Context) throws -> Void, failed: (@Sendable (any Error) -> Void)? = nil
    ) {
        let confined = self.confined
        queue.async {
            do { try Self.run(confined, body) } catch { failed?(error) }
        }
    }

    /// Runs `body` on the background thread and suspends until it has run: the caller's thread is free
    /// meanwhile.
    ///
    /// ```swift
    /// let ids = try await background.perform { context in try context.fetch(request).objectIDs }
    /// ```
    public func perform<T: Sendable>(_ body: @escaping @Sendable (Context) throws -> T) async throws -> T {
        let confined = self.confined
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try Self.run(confined, body) })
            }
        }
    }

    private func run<T>(_ body: (Context) throws -> T) throws -> T { try Self.run(confined, body) }

    /// On the background thread: takes in what was committed elsewhere, then runs `body`.
    private static func run<T>(_ confined: Confined, _ body: (Context) throws -> T) throws -> T {
        // What makes `Confined`'s `@unchecked Sendable` true: its context is touched on its queue only.
        precondition(DispatchQueue.getSpecific(key: confined.marker) == true, "a background context's block ran off its thread")
        guard let context = confined.context else { preconditionFailure("a background context is used before it opened") }
        try context.store.poll()
        return try body(context)
    }
}
