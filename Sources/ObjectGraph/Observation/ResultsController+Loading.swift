extension ResultsController {
    /// Takes over the background read's IDs if it has finished, without waiting; true once every ID is known.
    ///
    /// A UI calls it on idle ticks so that it can show the count ("12/340") as soon as it is known, without
    /// ever blocking a frame on the read.
    @discardableResult
    public func loadIfReady() -> Bool {
        guard let scan = pendingScan else { return true }
        guard scan.isFinished else { return false }
        loadRest()
        return true
    }

    /// Re-reads the result and delivers the difference from what the observer last saw.
    func reloadAll() throws(StoreError) {
        guard fetched, !isInvalidated else { return }
        try completeLoading()
        let fresh = try context.fetch(request).rowIDs
        var touched: [Int64: PropertyMask] = [:]
        for id in storage.rowIDs { touched[id] = PropertyMask(rawValue: ~0) }
        for id in fresh { touched[id] = PropertyMask(rawValue: ~0) }
        if isPaused {
            for (id, mask) in touched { pending[id, default: []].formUnion(mask) }
            return
        }
        let batch = try diff(touched, local: false)
        if !batch.isEmpty { onChange?(batch) }
    }
}
