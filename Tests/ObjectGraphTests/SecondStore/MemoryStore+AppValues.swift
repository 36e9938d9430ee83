import Foundation

@testable import ObjectGraph

extension MemoryStore {
    func appValue(_ key: String) throws(StoreError) -> String? { state.appValues[key] }

    func setAppValue(_ key: String, _ value: String?) throws(StoreError) {
        if isInTransaction {
            state.appValues[key] = value
            return
        }
        do {
            try writeTransaction { state.appValues[key] = value }
        } catch let e as StoreError {
            throw e
        } catch {
            throw StoreError(.storage, "\(error)")
        }
    }
}
