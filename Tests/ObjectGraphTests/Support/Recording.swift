import Foundation

@testable import ObjectGraph

/// Records every will-delete call (name, cascade flag), shared by the recording classes.
/// `@unchecked Sendable`: tests run in parallel and every access to `entries` takes the lock.
final class DeleteLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: [String]] = [:]
    static let shared = DeleteLog()
    func add(_ key: String, _ s: String) { lock.lock(); entries[key, default: []].append(s); lock.unlock() }
    func take(_ key: String) -> [String] { lock.lock(); defer { lock.unlock() }; return entries.removeValue(forKey: key) ?? [] }
}

class Recording: ManagedObject {
    override func prepareForDeletion(_ deletion: Deletion) {
        let name: String = self["name"]
        let tag = name.split(separator: ":").first.map(String.init) ?? ""
        DeleteLog.shared.add(tag, "\(name)\(deletion.isCascade ? " (cascade)" : "")")
    }
}
final class RecordingOwner: Recording {}
final class RecordingPet: Recording {}
final class RecordingToy: Recording {}
