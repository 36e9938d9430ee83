extension Store {
    /// A watcher of this store's files, to wake on other processes' commits; nil for a store in memory (no
    /// other process can write it) or where the system gives no notifications.
    public func makeWatcher() -> StoreWatcher? {
        path.flatMap { StoreWatcher(path: $0) }
    }
}
