import Foundation

/// What a batch of new rows needs that depends on the rows alone, worked out on another thread while the
/// writing thread's SQL inserts them: the undo step's fingerprints (`Context.flushRows`) and the folded
/// texts of the search index (`SQLiteStore.writeFullText`). An import's million rows spent a tenth of the
/// writing thread's time on these.
final class RowPreparation: @unchecked Sendable {
    // @unchecked: the worker writes `fingerprints` and `folded` before it signals `done`; the writing
    // thread reads them only after `wait()`, which waits for that signal.
    /// Rows from which the work goes to another thread: below, handing it over costs more than it saves.
    static let threshold = 1024

    private let done = DispatchSemaphore(value: 0)
    private var finished = false
    private var fingerprints: [(id: ObjectID, fingerprint: UInt64)] = []
    /// For each run, the folded text of each row's full-text columns (`fullTextSlots` order), row by row;
    /// empty for a run whose entity has no full-text index.
    private var folded: [[String?]] = []

    /// Starts the work on `runs` (the context's pending rows, in the order the store write lists them).
    init(_ runs: [(EntityDescription, [ObjectID], [[Value]])], fingerprints wanted: Bool) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            var scratch = ByteWriter()
            for (e, ids, rows) in runs {
                if wanted {
                    for (id, row) in zip(ids, rows) { fingerprints.append((id, UndoRecord.fingerprint(row, e, scratch: &scratch))) }
                }
                var texts: [String?] = []
                if !e.fullTextSlots.isEmpty {
                    texts.reserveCapacity(rows.count * e.fullTextSlots.count)
                    for row in rows {
                        for slot in e.fullTextSlots {
                            if case .string(let s) = row[slot] { texts.append(TextFolding.fold(s)) } else { texts.append(nil) }
                        }
                    }
                }
                folded.append(texts)
            }
            done.signal()
        }
    }

    /// Waits for the work to end (at once after the first time).
    func wait() {
        guard !finished else { return }
        done.wait()
        finished = true
    }

    /// The rows' fingerprints, in order (after ``wait()``).
    var rowFingerprints: [(id: ObjectID, fingerprint: UInt64)] {
        precondition(finished, "wait() first")
        return fingerprints
    }

    /// Whether `run`'s folded texts were worked out (after ``wait()``).
    func hasFolded(run: Int) -> Bool {
        precondition(finished, "wait() first")
        return run < folded.count && !folded[run].isEmpty
    }

    /// Row `row` of run `run`, column `column` of its full-text columns, folded (after ``wait()``).
    func folded(run: Int, row: Int, column: Int, of columns: Int) -> String? {
        folded[run][row * columns + column]
    }
}
