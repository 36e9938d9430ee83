import Foundation
import ObjectGraph
import Outline
import OutlineServer

extension Replicator {
    /// This outline's ``OutlineDigest`` (its items as the server names them, the top as outline `id`) and the
    /// server change it is as of, read in one snapshot; nil while the outbox holds actions (they are not the
    /// server's yet). An item with no name here, or whose parent has none, is reported in `unnamed`: the
    /// server cannot hold it, so the two differ.
    func localDigest(outline id: UUID) throws -> (digest: OutlineDigest, seq: Int64, unnamed: Int)? {
        let context = outline.context
        return try context.reading { () throws -> (digest: OutlineDigest, seq: Int64, unnamed: Int)? in
            guard try store.outboxCount() == 0 else { return nil }
            let seq = try store.appValue(Key.seq).flatMap { Int64($0) } ?? 0
            let root = try outline.root()
            let rows = try outline.subtree(under: root)
            let ids = rows.map(\.id)
            let names = try store.knownExternalIDs(for: ids)
            let orders = try context.storedValues(of: ids, entity: "Item", keys: ["order"])
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
                let ord: String
                if case .string(let s)? = order?.first { ord = s } else { ord = "" }
                digest.toggle(ServerItem(id: name, parent: parent, ord: ord, title: row.title, note: row.note, done: row.isDone))
            }
            return (digest, seq, unnamed)
        }
    }
}
