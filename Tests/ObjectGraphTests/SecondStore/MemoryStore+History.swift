import Foundation

@testable import ObjectGraph

/// The undo history kept in the state a write transaction rolls back, as a list oldest first, trimmed as
/// the SQLite store trims it (to nine tenths of a limit once past it).
extension MemoryStore {
    func appendHistory(_ entry: HistoryEntry, step: [UInt8], modelHash: String, limits: HistoryLimits) throws(StoreError) -> Int64 {
        precondition(isInTransaction)
        return modify { s in
            if let done = s.history.lastIndex(where: { $0.entry.state == .done }) {
                s.history.removeSubrange((done + 1)...)
            } else {
                s.history = []
            }
            let seq = s.nextAction
            s.nextAction += 1
            s.history.append((with(entry, sequence: seq, size: step.count), step, modelHash))
            let bytes = s.history.reduce(0) { $0 + $1.entry.size }
            if s.history.count > max(1, limits.actions) || bytes > limits.bytes {
                let keepCount = max(1, limits.actions) - max(1, limits.actions) / 10, keepBytes = limits.bytes - limits.bytes / 10
                var kept = 0, keptBytes = 0
                var first = s.history.count - 1
                kept = 1
                keptBytes = s.history[first].entry.size
                while first > 0 && kept < keepCount && keptBytes + s.history[first - 1].entry.size <= keepBytes {
                    first -= 1
                    kept += 1
                    keptBytes += s.history[first].entry.size
                }
                s.history.removeFirst(first)
            }
            return seq
        }
    }

    func replaceHistoryStep(_ sequence: Int64, step: [UInt8], objectCount: Int) throws(StoreError) -> Bool {
        precondition(isInTransaction)
        return modify { s in
            guard let i = s.history.firstIndex(where: { $0.entry.sequence == sequence && $0.entry.state == .done }) else { return false }
            var e = with(s.history[i].entry, sequence: sequence, size: step.count)
            e = HistoryEntry(
                sequence: e.sequence, name: e.name, date: e.date, origin: e.origin, place: e.place, state: e.state, objectCount: objectCount,
                size: e.size)
            s.history[i] = (e, step, s.history[i].modelHash)
            return true
        }
    }

    func historyTop(undone: Bool, withStep: Bool) throws(StoreError) -> (entry: HistoryEntry, step: [UInt8]?, modelHash: String)? {
        let found = undone ? state.history.first { $0.entry.state == .undone } : state.history.last { $0.entry.state == .done }
        return found.map { ($0.entry, withStep ? $0.step : nil, $0.modelHash) }
    }

    func setHistoryState(_ sequence: Int64, _ newState: HistoryState) throws(StoreError) {
        precondition(isInTransaction)
        modify { s in
            guard let i = s.history.firstIndex(where: { $0.entry.sequence == sequence }) else { return }
            let e = s.history[i].entry
            s.history[i].entry = HistoryEntry(
                sequence: e.sequence, name: e.name, date: e.date, origin: e.origin, place: e.place, state: newState,
                objectCount: e.objectCount, size: e.size)
        }
    }

    func dropNewestHistory(_ sequence: Int64) throws(StoreError) {
        precondition(isInTransaction)
        modify { s in if s.history.last?.entry.sequence == sequence { s.history.removeLast() } }
    }

    func clearHistory() throws(StoreError) {
        precondition(isInTransaction)
        modify { $0.history = [] }
    }

    func historyEntries(limit: Int) throws(StoreError) -> [HistoryEntry] {
        Array(state.history.reversed().prefix(limit).map(\.entry))
    }

    private func with(_ e: HistoryEntry, sequence: Int64, size: Int) -> HistoryEntry {
        HistoryEntry(
            sequence: sequence, name: e.name, date: e.date, origin: e.origin, place: e.place, state: e.state, objectCount: e.objectCount,
            size: size)
    }
}

extension MemoryStore {
    fileprivate func modify<T>(_ change: (inout State) -> T) -> T { change(&state) }
}
