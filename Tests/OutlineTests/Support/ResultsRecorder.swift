import Foundation
import ObjectGraph
import Testing

/// Collects the batches a controller delivers and checks each against the list it had before: applying
/// the batch to the old list must give the controller's new list, which must equal a fresh fetch.
final class ResultsRecorder {
    let controller: ResultsController
    private(set) var batches: [ResultsBatch] = []
    private(set) var last: [[Int64]]
    var failures: [String] = []

    init(_ controller: ResultsController) throws {
        self.controller = controller
        try controller.performFetch()
        last = ResultsRecorder.sections(of: controller)
        controller.onChange = { [unowned self] batch in self.receive(batch) }
    }

    /// The batches delivered since the last call, as text.
    func take() -> [String] {
        defer { batches = [] }
        return batches.map(\.description)
    }

    private func receive(_ batch: ResultsBatch) {
        batches.append(batch)
        let now = ResultsRecorder.sections(of: controller)
        let applied = batch.apply(to: last) { controller.objectID(at: $0).rowID }
        if applied != now { failures.append("batch \(batch) applied to \(last) gives \(applied), controller has \(now)") }
        last = now
    }

    /// Checks the controller's list against a fresh fetch of its request in a new context.
    func checkAgainstFetch(_ store: Store) throws {
        let fresh = try Context(store: store).fetch(controller.request).rowIDs
        let mine = controller.objectIDs.map(\.rowID)
        if fresh != mine { failures.append("controller has \(mine), a fresh fetch gives \(fresh)") }
        if !controller.isPaused && !controller.isInvalidated && last.flatMap({ $0 }) != mine {
            failures.append("recorded \(last) but controller has \(mine)")
        }
    }

    static func sections(of c: ResultsController) -> [[Int64]] {
        (0..<c.numberOfSections).map { s in
            (0..<c.numberOfRows(inSection: s)).map { c.objectID(at: ResultIndex(s, $0)).rowID }
        }
    }
}
