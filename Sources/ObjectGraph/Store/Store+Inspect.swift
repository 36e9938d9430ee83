import Foundation
import GRDB

extension Store {
    /// Reads an existing file without writing to it and decides whether it can be opened with `model`.
    /// Returns nil for a new (absent or empty) file.
    static func inspect(path: String, model: Model) throws(StoreError) -> StoredModel? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            let dir = (path as NSString).deletingLastPathComponent
            if !dir.isEmpty && !FileManager.default.fileExists(atPath: dir) {
                throw StoreError(.cannotOpen, "cannot create the store: the folder \(dir) does not exist", path: path)
            }
            return nil
        }
        if isDirectory.boolValue { throw StoreError(.cannotOpen, "cannot open the store: it is a folder", path: path) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StoreError(.cannotOpen, "cannot open the store: permission denied", path: path)
        }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        try? handle.close()
        if header.isEmpty { return nil }
        guard header == Data("SQLite format 3\0".utf8) else {
            throw StoreError(.notADatabase, "this file is not a Burrow database (it is not an SQLite file)", path: path)
        }
        let stored: StoredModel?
        do {
            let reader = try DatabaseQueue(path: path, configuration: configuration(readonly: true))
            stored = try reader.read { db -> StoredModel? in
                let stored = try readStoredModel(db)
                if stored == nil {
                    let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
                    if tables > 0 {
                        throw StoreError(.notAStore, "this SQLite file was not made by ObjectGraph (no og_metadata table)")
                    }
                }
                return stored
            }
            try reader.close()
        } catch let e as StoreError {
            var e = e
            e.path = path
            throw e
        } catch {
            throw StoreError.wrap(error, "cannot read the store", path: path)
        }
        guard let stored else { return nil }
        if stored.hash == model.versionHash { return stored }
        if stored.version > model.version {
            throw StoreError(
                .newerModel,
                "this store was written by a newer version of the model (\(stored.version), this program knows \(model.version)); "
                    + "upgrade the program to open it", path: path)
        }
        do {
            _ = try SchemaMigration.plan(from: stored, to: model)
        } catch {
            var e = error
            e.path = path
            throw e
        }
        return stored
    }
}
