import ObjectGraph

/// Collects the batches a results controller delivers and checks each against the list it had before:
/// applying the batch to the old list (as a table view would) must give the controller's new list, which
/// must equal a fresh fetch of its request. The same change in the other two shapes is checked too: the
/// difference of IDs applied to the old flat list gives the new one, and the snapshot is the new sections. What fails is collected in `failures`, so a randomized test
/// can stop at the first step that broke and say which one.
///
/// ```swift
/// let recorder = try ResultsRecorder(ResultsController(context: context, request: request))
/// // … change and save …
/// #expect(recorder.take() == ["insert [0.2]"])
/// try recorder.checkAgainstFetch(store)
/// #expect(recorder.failures == [])
/// ```
public final class ResultsRecorder {
    public let controller: ResultsController
    public private(set) var batches: [ResultsBatch] = []
    /// The sections as the last batch left them, as row IDs.
    public private(set) var last: [[Int64]]
    public var failures: [String] = []

    /// Fetches the controller's result and starts recording its batches (the controller's `onChange`).
    public init(_ controller: ResultsController) throws {
        self.controller = controller
        try controller.performFetch()
        last = ResultsRecorder.sections(of: controller)
        controller.onChange = { [unowned self] batch in self.receive(batch) }
        controller.onDifference = { [unowned self] difference in
            let now = self.controller.objectIDs
            if before.flatMap({ $0 }).map({ ObjectID(entity: self.controller.entity.index, rowID: $0) }).applying(difference) != now {
                failures.append("difference \(difference) applied to \(before) does not give \(now.map(\.rowID))")
            }
        }
        controller.onSnapshot = { [unowned self] snapshot in
            let now = ResultsRecorder.sections(of: self.controller)
            if snapshot.sections.map({ $0.items.map(\.rowID) }) != now { failures.append("snapshot \(snapshot) is not \(now)") }
            let items = Set(snapshot.items), was = Set(before.flatMap { $0 })
            for id in snapshot.reloaded where !items.contains(id) || !was.contains(id.rowID) {
                failures.append("snapshot reloads \(id), which is not in both the old and the new list")
            }
        }
    }

    /// The sections before the batch being delivered.
    private var before: [[Int64]] = []

    /// The batches delivered since the last call, as text ("delete [0.1]; insert [0.3]").
    public func take() -> [String] {
        defer { batches = [] }
        return batches.map(\.description)
    }

    private func receive(_ batch: ResultsBatch) {
        before = last
        batches.append(batch)
        let now = ResultsRecorder.sections(of: controller)
        let applied = batch.apply(to: last) { controller.objectID(at: $0).rowID }
        if applied != now { failures.append("batch \(batch) applied to \(last) gives \(applied), controller has \(now)") }
        last = now
    }

    /// Checks the controller's list against a fresh fetch of its request in a new context, and (unless it
    /// is paused or invalidated, when it owes or owns no batch) against what its batches built.
    public func checkAgainstFetch(_ store: Store) throws {
        let fresh = try Context(store: store).fetch(controller.request).rowIDs
        let mine = controller.objectIDs.map(\.rowID)
        if fresh != mine { failures.append("controller has \(mine), a fresh fetch gives \(fresh)") }
        if !controller.isPaused && !controller.isInvalidated && last.flatMap({ $0 }) != mine {
            failures.append("recorded \(last) but controller has \(mine)")
        }
    }

    /// The controller's result as row IDs, section by section.
    public static func sections(of c: ResultsController) -> [[Int64]] {
        (0..<c.numberOfSections).map { s in
            (0..<c.numberOfRows(inSection: s)).map { c.objectID(at: ResultIndex(s, $0)).rowID }
        }
    }
}
