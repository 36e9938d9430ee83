import Foundation
import Testing

@testable import ObjectGraph

/// A fresh folder per test, removed when the value is dropped.
final class TempDir {
    let url: URL
    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("og-test-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String = "store.sqlite") -> String { url.appendingPathComponent(name).path }
    deinit { try? FileManager.default.removeItem(at: url) }
}

/// The bytes of a file and of its WAL/SHM companions, to prove a failed open left everything as it was.
func fileState(_ path: String) -> [String: Data?] {
    var out: [String: Data?] = [:]
    for suffix in ["", "-wal", "-shm", "-journal"] {
        out[suffix] = FileManager.default.contents(atPath: path + suffix)
    }
    return out
}

/// Runs `body` expecting it to throw a `StoreError`, and returns that error.
func storeError(_ body: () throws -> Void) -> StoreError? {
    do {
        try body()
        return nil
    } catch let e as StoreError {
        return e
    } catch {
        Issue.record("expected a StoreError, got \(error)")
        return nil
    }
}

/// Runs `body` expecting a validation failure, and returns its errors' descriptions.
func validationErrors(_ body: () throws -> Void) -> [String] {
    do {
        try body()
        Issue.record("expected a validation failure")
        return []
    } catch let e as ValidationFailure {
        return e.errors.map(\.description)
    } catch {
        Issue.record("expected a ValidationFailure, got \(error)")
        return []
    }
}

/// A model with one attribute of every type, every validation rule, and every delete rule.
enum Fixtures {
    static let allTypes = try! Model(version: 1) {
        Entity("Thing") {
            Attribute("s", .string, optional: true)
            Attribute("i", .integer64, optional: true)
            Attribute("d", .double, optional: true)
            Attribute("b", .bool, optional: true)
            Attribute("t", .date, optional: true)
            Attribute("x", .binary, optional: true)
            Attribute("u", .uuid, optional: true)
            Attribute("withDefault", default: "hello")
            Attribute("count", default: Int64(7))
        }
    }

    static let rules = try! Model(version: 1) {
        Entity("Rule") {
            Attribute("required", .string)
            Attribute("ranged", .integer64, optional: true, min: 1, max: 10)
            Attribute("fraction", .double, optional: true, min: 0, max: 1)
            Attribute("short", .string, optional: true, minLength: 2, maxLength: 4)
            Attribute("code", .string, optional: true, pattern: "[A-Z]{3}-[0-9]+")
            Attribute("blob", .binary, optional: true, maxLength: 3)
        }
    }

    /// Owner has one relationship per delete rule; Pet is on the other side of each.
    static let rulesGraph = try! Model(version: 1) {
        Entity("Owner", type: RecordingOwner.self) {
            Attribute("name", .string, default: "")
            Relationship.toMany("cascaded", "Pet", inverse: "cascadeOwner", deleteRule: .cascade)
            Relationship.toMany("nullified", "Pet", inverse: "nullifyOwner", deleteRule: .nullify)
            Relationship.toMany("denied", "Pet", inverse: "denyOwner", deleteRule: .deny)
            Relationship.toMany("ignored", "Pet", inverse: "noActionOwner", deleteRule: .noAction)
            Relationship.toOne("spouse", "Owner", inverse: "spouseOf")
            Relationship.toOne("spouseOf", "Owner", inverse: "spouse")
        }
        Entity("Pet", type: RecordingPet.self) {
            Attribute("name", .string, default: "")
            Relationship.toOne("cascadeOwner", "Owner", inverse: "cascaded")
            Relationship.toOne("nullifyOwner", "Owner", inverse: "nullified")
            Relationship.toOne("denyOwner", "Owner", inverse: "denied")
            Relationship.toOne("noActionOwner", "Owner", inverse: "ignored")
            Relationship.toMany("toys", "Toy", inverse: "pet", deleteRule: .cascade)
        }
        Entity("Toy", type: RecordingToy.self) {
            Attribute("name", .string, default: "")
            Relationship.toOne("pet", "Pet", inverse: "toys")
        }
    }
}

/// Records every will-delete call (name, cascade flag), shared by the recording classes.
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
