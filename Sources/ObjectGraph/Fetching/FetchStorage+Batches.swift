extension FetchStorage {
    /// Reads the batch of rows around `index` into the result's buffer. Reading on from the previous
    /// batch (or from the start) is one ordered range scan that continues after the last row read
    /// (keyset pagination); rows are checked against the expected IDs, and anything that does not match
    /// (the store changed, or the result has unsaved rows) is read by ID instead.
    func loadBatch(
        around index: Int, size batchSize: Int, from store: any PersistentStore, generation: Int, statistics: inout ContextStatistics
    ) {
        let n = rowIDs.count
        let backward = index > 0 && index == batchStart - 1
        // No row read in order yet, and near the start (the first rows came another way: a screen's first
        // rows read by ID): from the start, one ordered scan of a few rows more, rather than a list of IDs
        // to look up one by one (the first scroll of a level cost twice a key), and the next batch goes on.
        let start = !backward && anchor == nil && index < batchSize ? 0 : index
        let range = backward ? max(0, index - batchSize + 1)..<(index + 1) : start..<min(index + batchSize, n)
        statistics.batchLoads += 1
        // The ordered read's buffer becomes the batch as it is; rows it did not match are read by ID.
        var rows: [[Value]?] = []
        // A failed read here leaves its rows to the next way (by ID, then one at a time as faults, whose
        // failure the context keeps): an optimisation never decides what is shown.
        if !backward, let ordered = try? store.rowsInOrder(self, from: range.lowerBound, count: range.count) {
            rows = ordered
            statistics.rowsLoaded += ordered.count
            statistics.rowsReadInOrder += ordered.count
        }
        let matched = rows.count
        if matched < range.count {
            rows.append(contentsOf: repeatElement(nil, count: range.count - matched))
            let rest = Array(rowIDs[(range.lowerBound + matched)..<range.upperBound])
            // As above: rows not read in the batch are read as faults.
            if let loaded = try? store.rows(of: entity, ids: rest, layout: layout) {
                for (j, row) in loaded.enumerated() where row != nil {
                    rows[matched + j] = row
                    statistics.rowsLoaded += 1
                }
            }
        }
        batchRows = rows
        batchStart = range.lowerBound
        batchGeneration = generation
        if let last = rows.last ?? nil {
            let slots = request.sortKeys.map { entity.property($0.key)!.slot }
            anchor = (range.upperBound - 1, slots.map { last[$0] })
        } else {
            anchor = nil
        }
    }
}
