extension ResultsController {
    /// Takes over the background read's IDs if it has finished, without waiting; true once every ID is known.
    ///
    /// A UI calls it on idle ticks so that it can show the count ("12/340") as soon as it is known, without
    /// ever blocking a frame on the read.
    @discardableResult
    public func loadIfReady() -> Bool {
        guard let scan = pendingScan else { return true }
        guard scan.isFinished else { return false }
        try? completeLoading()
        return true
    }
}
