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
        guard isTracking else {
            missedChanges = true
            return
        }
        try completeLoading()
        missedChanges = false
        let touched = try everyRowTouched()
        if isPaused {
            for (id, mask) in touched { pending[id, default: []].formUnion(mask) }
            return
        }
        try deliver(touched: touched, anchorDeleted: false, local: false)
    }
}
