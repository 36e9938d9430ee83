import Foundation
import ObjectGraph
import Outline
import OutlineServer

/// The server's changes applied to the local store the way another process's commits arrive: each in a
/// transaction that records no action (no undo step, nothing in the outbox: it came from the server), so
/// results controllers, levels and folds see an ordinary commit. Items are found by their external names;
/// one the store has never seen is inserted and named. The top item is the outline's UUID.
///
/// ```swift
/// try ChangeApplier.apply(try await server.changes(outline: id, after: seq), to: outline)
/// ```
public enum ChangeApplier {
    /// Applies `changes` in order, as few transactions as can be: a run of changes goes in one, ended by
    /// a deletion (a later change may bring back an item it deleted: its row must be gone before the name
    /// moves to the new one) or after `runLength` changes. An upserted item whose parent the store lacks
    /// (never the server's doing; a store damaged by hand) goes under the top item rather than nowhere.
    /// With `checkpoint`, that key is set to the last change's number in each transaction. For a download
    /// (``Replicator/attach(_:through:)``) and tests; a round's changes go through a rebase instead.
    public static func apply(_ changes: [ServerChange], to outline: Outline, checkpoint: String? = nil, diverged: ((String) -> Void)? = nil) throws {
        let context = outline.context
        let store = context.store
        var runs: [ArraySlice<ServerChange>] = []
        var start = changes.startIndex
        for (k, change) in changes.enumerated() {
            let end = changes.startIndex + k + 1
            if case .delete = change.body {
                runs.append(changes[start..<end])
                start = end
            } else if end - start >= runLength {
                runs.append(changes[start..<end])
                start = end
            }
        }
        if start < changes.endIndex { runs.append(changes[start...]) }
        try unrecorded(context) {
            for run in runs {
                try context.transaction {
                    if let checkpoint, let last = run.last { try store.setAppValue(checkpoint, String(last.seq)) }
                    let root = try outline.root()
                    for change in run {
                        switch change.body {
                        case .upsert(let items):
                            for item in items { try upsert(item, root: root, outline: outline, store: store, diverged: diverged) }
                        case .delete(let ids):
                            for id in try store.objects(named: ids) {
                                guard let id, let object = try context.existingObject(for: id), !object.isDeleted else { continue }
                                // The top item is never deleted (the server's is the outline itself).
                                if let item = object as? Item, item.isRoot { continue }
                                context.delete(object)
                            }
                        }
                    }
                }
            }
        }
    }

    /// At most this many changes go in one local transaction.
    static let runLength = 500

    /// The local item named `uuid`, nil when there is none (never named, or deleted here).
    static func local(_ uuid: UUID, in context: Context) throws -> Item? {
        guard let id = try context.store.objects(named: [uuid])[0], let item = try context.existingObject(for: id) as? Item,
            !item.isDeleted
        else { return nil }
        return item
    }

    /// The server's whole outline made the local one: every item upserted (parents first, as
    /// `ServerConnection.items` gives them), every local item the server lacks deleted, and `settle` run
    /// (which records the position); in one transaction, and not while the outbox holds unsent actions
    /// (false then). For a store that
    /// went its own way (an item deleted here that the server kept, an item put under the top for want of
    /// its parent).
    @discardableResult
    public static func replace(with items: [ServerItem], in outline: Outline, settle: () throws -> Void) throws -> Bool {
        let context = outline.context
        let store = context.store
        return try unrecorded(context) {
            try context.transaction { () throws -> Bool in
                guard try store.outbox(after: 0, limit: 1).isEmpty else { return false }
                try settle()
                let root = try outline.root()
                for item in items where item.parent != nil { try upsert(item, root: root, outline: outline, store: store, diverged: nil) }
                let kept = Set(items.map(\.id))
                let rows = try outline.subtree(under: root)
                for (row, name) in zip(rows, try store.knownExternalIDs(for: rows.map(\.id))) where name.map({ !kept.contains($0) }) ?? true {
                    if let object = try context.existingObject(for: row.id), !object.isDeleted { context.delete(object) }
                }
                return true
            }
        }
    }

    /// Runs `body` with the context recording no action: what comes from the server is no action here (no
    /// undo step, nothing sent back).
    static func unrecorded<T>(_ context: Context, _ body: () throws -> T) rethrows -> T {
        let history = context.undoHistory
        let recording = history.recordsActions
        history.recordsActions = false
        defer { history.recordsActions = recording }
        return try body()
    }

    private static func upsert(_ server: ServerItem, root: Item, outline: Outline, store: Store, diverged: ((String) -> Void)?) throws {
        let context = outline.context
        let item: Item
        if let known = try local(server.id, in: context) {
            item = known
        } else if server.parent == nil {
            // The server's top item: the outline, named at attach; nothing of it is kept here.
            return
        } else {
            item = try context.insert(Item.self, entity: Item.entityName)
            // A name whose row is gone here (deleted, and the server still has or restored the item) moves
            // to the new row; `name` refuses only a name another item here still has, which cannot be.
            guard try store.name(item.objectID, by: server.id) else {
                throw StoreError(.conflict, "the shared item \(server.id) is named twice in this outline")
            }
        }
        if item.isRoot { return }
        let found = try server.parent.flatMap { try local($0, in: context) }
        if found == nil, server.parent != nil { diverged?("the parent of \(server.id) is missing here") }
        let parent = found ?? root
        if item.parent !== parent { item.setObject(parent, for: "parent") }
        if item.order != server.ord { item.order = server.ord }
        if item.title != server.title { item.title = server.title }
        if item.note != server.note { item.note = server.note }
        if item.isDone != server.isDone { item.isDone = server.isDone }
        if item.syncedExtras != server.extras { try outline.setSyncedExtras(server.extras, of: item) }
    }
}
