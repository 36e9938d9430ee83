import Foundation

extension Store {
    /// Makes a new store at `path` the quick way, for a first big write such as an import: `body` writes it
    /// in a hidden file beside `path` that nothing else opens (no write-ahead log to write and copy again:
    /// a million-item import took a quarter less time), and the file takes the name once `body` has
    /// returned and the store is closed. Nil, with nothing kept, when that cannot be done: a file is at
    /// `path`, another process is making one there this way, the folder refuses the hidden file, or a store
    /// took the name while `body` ran (then `body` has run: do its work again the ordinary way, with no
    /// effect outside the store). A failure in `body` leaves no file; so does a crash, once a store is
    /// next opened to write at `path`.
    ///
    /// ```swift
    /// let count = try Store.makeNew(at: "outline.sqlite", model: model) { store in try load(into: store) }
    ///     ?? load(into: try Store(path: "outline.sqlite", model: model))
    /// ```
    public static func makeNew<T>(at path: String, model: Model, _ body: (Store) throws -> T) throws -> T? {
        var status = stat()
        guard lstat(path, &status) != 0, errno == ENOENT, let aside = AsideFile.take(for: path) else { return nil }
        let result: T
        do {
            let store = try Store(SQLiteStore(path: aside.path, model: model, aside: true), model: model, path: aside.path, isReadOnly: false)
            do {
                result = try body(store)
            } catch {
                // The file is discarded below whatever the close says; the body's error is the one to tell.
                try? store.close()
                throw error
            }
            try store.close()
        } catch var error as StoreError {
            aside.discard()
            // Said of the path the caller gave: the hidden file is gone by the time anyone reads it.
            if error.path == aside.path { error.path = path }
            throw error
        } catch {
            aside.discard()
            throw error
        }
        guard try aside.publish() else { return nil }
        SQLiteStore.useLog(at: path)
        return result
    }
}
