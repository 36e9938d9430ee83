/// Values a program keeps in the store beside its objects (a sync's server and position, say): text by
/// key, read and written like the objects, in the open write transaction when there is one, so a value
/// changes in the same commit as the objects it describes.
///
/// ```swift
/// try store.setAppValue("sync.seq", "42")
/// let seq = try store.appValue("sync.seq").flatMap { Int64($0) } ?? 0
/// ```
extension Store {
    /// The value kept under `key`, nil for none.
    public func appValue(_ key: String) throws(StoreError) -> String? { try backend.appValue(key) }

    /// Keeps `value` under `key`; nil removes it.
    public func setAppValue(_ key: String, _ value: String?) throws(StoreError) { try backend.setAppValue(key, value) }

    /// The keys that begin with `prefix`, in order: `appValueKeys(withPrefix: "sync.")`.
    public func appValueKeys(withPrefix prefix: String) throws(StoreError) -> [String] { try backend.appValueKeys(withPrefix: prefix) }

    /// The model versions this store was migrated from, oldest first (each once, kept for good): a program
    /// whose new version reads some stored data otherwise runs its own step once for them.
    ///
    /// ```swift
    /// if try store.upgradedVersions().contains(where: { $0 < 7 }) { … }
    /// ```
    public func upgradedVersions() throws(StoreError) -> [Int] { try backend.upgradedVersions() }
}
