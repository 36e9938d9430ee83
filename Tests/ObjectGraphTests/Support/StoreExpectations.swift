import Foundation
import Testing

@testable import ObjectGraph

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
