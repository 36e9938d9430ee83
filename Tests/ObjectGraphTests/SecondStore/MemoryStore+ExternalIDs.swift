import Foundation

@testable import ObjectGraph

extension MemoryStore {
    func externalIDs(_ ids: [ObjectID], assign: Bool) throws(StoreError) -> [UUID?] {
        if !assign { return ids.map { state.names[$0.rowID]?.uuid } }
        return try inWrite { () throws(StoreError) -> [UUID?] in
            ids.map { id in
                if let known = state.names[id.rowID] { return known.uuid }
                let uuid = UUID()
                state.names[id.rowID] = (id.entity, uuid)
                state.named[uuid] = id
                return uuid
            }
        }
    }

    func objects(named uuids: [UUID]) throws(StoreError) -> [ObjectID?] { uuids.map { state.named[$0] } }

    func name(_ id: ObjectID, _ uuid: UUID) throws(StoreError) -> Bool {
        try inWrite { () throws(StoreError) -> Bool in
            if let known = state.names[id.rowID] { return known.uuid == uuid }
            if let holder = state.named[uuid] {
                // Still stored: the name is its. Gone: the name moves.
                if state.tables[holder.entity][holder.rowID] != nil { return false }
                state.names[holder.rowID] = nil
            }
            state.names[id.rowID] = (id.entity, uuid)
            state.named[uuid] = id
            return true
        }
    }

    /// In the open write transaction, or in one of its own.
    private func inWrite<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        if isInTransaction { return try body() }
        do {
            return try writeTransaction { try body() }
        } catch let e as StoreError {
            throw e
        } catch {
            throw StoreError(.storage, "\(error)")
        }
    }
}
