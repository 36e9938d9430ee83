extension ResultsController {
    /// The result now as identifiers: sections with their key values and object IDs (see ``onSnapshot``).
    public func snapshot() -> ResultsSnapshot {
        loadRest()
        var out: [ResultsSnapshot.Section] = []
        var start = 0
        for section in sections {
            let ids = storage.rowIDs[start..<start + section.count].map { ObjectID(entity: entity.index, rowID: $0) }
            out.append(ResultsSnapshot.Section(value: sectionKey == nil ? nil : section.value, items: ids))
            start += section.count
        }
        return ResultsSnapshot(sections: out)
    }

    /// The snapshot after `batch`, naming as reloaded the rows it changed that are still there (`old`: the
    /// row IDs before it).
    func snapshot(reloading batch: ResultsBatch, old: [Int64]) -> ResultsSnapshot {
        var s = snapshot()
        var changed = batch.updates.map(\.to) + batch.moves.map(\.to)
        if !batch.deletedSections.isEmpty {
            // An insert of a row the list had is a row that left a section that went.
            let had = Set(old)
            changed += batch.inserts.filter { had.contains(storage.rowIDs[flat($0)]) }
        }
        s.reloaded = changed.sorted().map { ObjectID(entity: entity.index, rowID: storage.rowIDs[flat($0)]) }
        s.isUserDriven = batch.isUserDriven
        s.isReload = batch.isReload
        return s
    }

    /// `batch` as the difference of the flattened ID lists: what it removed at offsets of `old` (laid out
    /// in `oldSections`), what it inserted at offsets of the new list, a row in both paired as a move.
    func difference(_ batch: ResultsBatch, from old: [Int64], _ oldSections: [(value: Value, count: Int)]) -> CollectionDifference<ObjectID> {
        func oldFlat(_ index: ResultIndex) -> Int {
            var base = 0
            for s in 0..<index.section { base += oldSections[s].count }
            return base + index.row
        }
        var removed = batch.deletes.map(oldFlat) + batch.moves.map { oldFlat($0.from) }
        for s in batch.deletedSections {
            let start = oldFlat(ResultIndex(s, 0))
            removed += start..<start + oldSections[s].count
        }
        let inserted = batch.inserts.map { flat($0) } + batch.moves.map { flat($0.to) }
        var insertedAt: [Int64: Int] = [:]
        for offset in inserted { insertedAt[storage.rowIDs[offset]] = offset }
        var removedAt: [Int64: Int] = [:]
        for offset in removed { removedAt[old[offset]] = offset }
        func id(_ rowID: Int64) -> ObjectID { ObjectID(entity: entity.index, rowID: rowID) }
        var changes: [CollectionDifference<ObjectID>.Change] = []
        for offset in removed { changes.append(.remove(offset: offset, element: id(old[offset]), associatedWith: insertedAt[old[offset]])) }
        for offset in inserted {
            let row = storage.rowIDs[offset]
            changes.append(.insert(offset: offset, element: id(row), associatedWith: removedAt[row]))
        }
        if let difference = CollectionDifference(changes) { return difference }
        // Not reached while batches are right: debug builds (the tests, which apply every difference) stop
        // here; a release build compares the lists rather than hand a view a difference that makes it lie.
        assertionFailure("batch \(batch) is not a difference from \(old) to \(storage.rowIDs)")
        return storage.rowIDs.map(id).difference(from: old.map(id)).inferringMoves()
    }
}
