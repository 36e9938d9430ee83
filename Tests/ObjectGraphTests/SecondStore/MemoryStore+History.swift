import Foundation

@testable import ObjectGraph

/// The undo history kept in the state a write transaction rolls back, as a list oldest first.
extension MemoryStore {
    func appendHistory(_ entry: HistoryEntry, step: [UInt8], modelHash: String, limits: HistoryLimits) throws(StoreError) -> Int64 {
        precondition(isInTransaction)
        return modify { s in
            s.history.removeAll { $0.entry.isUndone }
            let seq = s.nextAction
            s.nextAction += 1
            let e = HistoryEntry(
                sequence: seq, name: entry.name, date: entry.date, origin: entry.origin, place: entry.place, isUndone: false,
                objectCount: entry.objectCount, size: step.count)
            s.history.append((e, step, modelHash))
            while s.history.count > max(1, limits.actions) { s.history.removeFirst() }
            while s.history.count > 1 && s.history.reduce(0, { $0 + $1.entry.size }) > limits.bytes { s.history.removeFirst() }
            return seq
        }
    }

    func replaceHistoryStep(_ sequence: Int64, step: [UInt8], objectCount: Int) throws(StoreError) {
        precondition(isInTransaction)
        modify { s in
            guard let i = s.history.firstIndex(where: { $0.entry.sequence == sequence }) else { return }
            let e = s.history[i].entry
            s.history[i].entry = HistoryEntry(
                sequence: e.sequence, name: e.name, date: e.date, origin: e.origin, place: e.place, isUndone: e.isUndone,
                objectCount: objectCount, size: step.count)
            s.history[i].step = step
        }
    }

    func historyTop(undone: Bool, withStep: Bool) throws(StoreError) -> (entry: HistoryEntry, step: [UInt8]?, modelHash: String)? {
        let found = undone ? state.history.first { $0.entry.isUndone } : state.history.last { !$0.entry.isUndone }
        return found.map { ($0.entry, withStep ? $0.step : nil, $0.modelHash) }
    }

    func setHistoryUndone(_ sequence: Int64, _ undone: Bool) throws(StoreError) {
        precondition(isInTransaction)
        modify { s in
            guard let i = s.history.firstIndex(where: { $0.entry.sequence == sequence }) else { return }
            let e = s.history[i].entry
            s.history[i].entry = HistoryEntry(
                sequence: e.sequence, name: e.name, date: e.date, origin: e.origin, place: e.place, isUndone: undone,
                objectCount: e.objectCount, size: e.size)
        }
    }

    func removeHistory(_ sequences: [Int64]?) throws(StoreError) {
        precondition(isInTransaction)
        modify { s in
            guard let sequences else {
                s.history = []
                return
            }
            s.history.removeAll { sequences.contains($0.entry.sequence) }
        }
    }

    func historyEntries(limit: Int) throws(StoreError) -> [HistoryEntry] {
        Array(state.history.reversed().prefix(limit).map(\.entry))
    }

    func historyTotals() throws(StoreError) -> (undo: Int, redo: Int, bytes: Int) {
        let undone = state.history.filter(\.entry.isUndone).count
        return (state.history.count - undone, undone, state.history.reduce(0) { $0 + $1.entry.size })
    }
}

extension MemoryStore {
    fileprivate func modify<T>(_ change: (inout State) -> T) -> T { change(&state) }
}
