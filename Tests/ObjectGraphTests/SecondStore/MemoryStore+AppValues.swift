import Foundation

@testable import ObjectGraph

extension MemoryStore {
    func appValue(_ key: String) throws(StoreError) -> String? { state.appValues[key] }

    func appValueKeys(withPrefix prefix: String) throws(StoreError) -> [String] {
        state.appValues.keys.filter { $0.hasPrefix(prefix) }.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// A store in memory is made at its model's version: never migrated.
    func upgradedVersions() throws(StoreError) -> [Int] { [] }

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
