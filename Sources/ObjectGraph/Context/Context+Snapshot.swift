extension Context {
    /// Runs `body` with every read of this context's store on one snapshot of it (one read transaction),
    /// having taken in the commits made elsewhere up to then: what it reads in many queries is one state,
    /// however other processes write meanwhile (an export read a batch at a time). Other processes can still
    /// commit; nothing may save inside it.
    ///
    /// ```swift
    /// let count = try context.reading { try context.count(FetchRequest("Item")) }
    /// ```
    public func reading<T>(_ body: () throws -> T) throws -> T {
        try store.snapshot(body)
    }
}
