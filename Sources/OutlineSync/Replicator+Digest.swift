import Foundation
import ObjectGraph
import Outline
import OutlineServer

extension Replicator {
    /// This outline's ``OutlineDigest`` (its items as the server names them, the top as outline `id`) and the
    /// server change it is as of, read in one snapshot; nil while the outbox holds actions (they are not the
    /// server's yet). An item with no name here, or whose parent has none, is reported in `unnamed`: the
    /// server cannot hold it, so the two differ.
    public func localDigest(outline id: UUID) throws -> (digest: OutlineDigest, seq: Int64, unnamed: Int)? {
        try localDigestAndChange(outline: id).map { ($0.digest, $0.seq, $0.unnamed) }
    }

    /// ``localDigest(outline:)`` and the store's ``Store/latestChange()`` it was read at (in the same snapshot).
    func localDigestAndChange(outline id: UUID) throws -> (digest: OutlineDigest, seq: Int64, unnamed: Int, change: Int64)? {
        let context = outline.context
        return try context.reading { () throws -> (digest: OutlineDigest, seq: Int64, unnamed: Int, change: Int64)? in
            guard try store.outboxCount() == 0 else { return nil }
            guard let seq = try SyncState.load(store)?.seq else { return nil }
            let change = try store.latestChange()
            let root = try outline.root()
            let rows = try outline.subtree(under: root)
            let ids = rows.map(\.id)
            let names = try store.knownExternalIDs(for: ids)
            let orders = try context.storedValues(of: ids, entity: Item.entityName, keys: OutboxOperations.placeKeys)
            var byRow: [Int64: UUID] = [root.objectID.rowID: id]
            byRow.reserveCapacity(rows.count + 1)
            for (row, name) in zip(rows, names) { byRow[row.id.rowID] = name }
            var digest = OutlineDigest()
            var unnamed = 0
            for ((row, name), order) in zip(zip(rows, names), orders) {
                guard let name, let parent = byRow[row.parent] else {
                    unnamed += 1
                    continue
                }
                let (ord, extras) = OutboxOperations.orderAndExtras(order)
                digest.toggle(ServerItem(id: name, parent: parent, ord: ord, title: row.title, note: row.note, isDone: row.isDone, extras: extras))
            }
            return (digest, seq, unnamed, change)
        }
    }

    /// Up to three lines on how this outline differs from the server's `items` (for the reason a repair
    /// gives): an item missing here, one here that the server lacks, one placed or written otherwise.
    func differences(from items: [ServerItem], outline id: UUID) throws -> [String] {
        let root = try outline.root()
        let rows = try outline.subtree(under: root)
        let names = try store.knownExternalIDs(for: rows.map(\.id))
        let orders = try outline.context.storedValues(of: rows.map(\.id), entity: Item.entityName, keys: OutboxOperations.placeKeys)
        var byRow: [Int64: UUID] = [root.objectID.rowID: id]
        for (row, name) in zip(rows, names) { byRow[row.id.rowID] = name }
        var here: [UUID: ServerItem] = [:]
        for ((row, name), order) in zip(zip(rows, names), orders) {
            guard let name else { continue }
            let (ord, extras) = OutboxOperations.orderAndExtras(order)
            here[name] = ServerItem(
                id: name, parent: byRow[row.parent], ord: ord, title: row.title, note: row.note, isDone: row.isDone, extras: extras)
        }
        let there = Dictionary(items.filter { $0.parent != nil }.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let titles = there.mapValues(\.title).merging(here.mapValues(\.title)) { a, _ in a }
        func title(_ parent: UUID?) -> String {
            guard let parent else { return "nothing" }
            return parent == id ? "the top" : "“\(titles[parent] ?? "?")”"
        }
        var out: [String] = []
        for (name, item) in there.sorted(by: { $0.key.uuidString < $1.key.uuidString }) where out.count < 3 {
            guard let mine = here[name] else {
                out.append("“\(item.title)” is on the server, not here")
                continue
            }
            if mine.parent != item.parent {
                out.append("“\(item.title)” is under \(title(item.parent)) there, under \(title(mine.parent)) here")
            } else if mine != item {
                out.append("“\(item.title)” differs (here \(mine.ord) “\(mine.title)”, there \(item.ord))")
            }
        }
        for (name, item) in here where there[name] == nil && out.count < 3 { out.append("“\(item.title)” is here, not on the server") }
        if rows.count > names.compactMap({ $0 }).count && out.count < 3 { out.append("items here have no name on the server") }
        return out
    }
}
