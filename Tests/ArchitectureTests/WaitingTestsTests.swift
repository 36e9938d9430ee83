import Foundation
import Testing

/// A test file whose tests block their thread while they wait (a screen polled, a child process waited for)
/// runs them on threads of their own (`.onAThreadOfItsOwn`): on the concurrency pool such a wait takes one
/// of its two threads from the tests that compute, and a core sits idle (2026-12-02: a minute and more of a
/// full pass; had both threads blocked so, the run would have hung).
@Suite struct WaitingTestsTests {
    @Test func testsThatWaitRunOnThreadsOfTheirOwn() throws {
        // What blocks a thread in TestSupport's helpers and the end-to-end tests' own.
        let waits = #/Poll\.|Tmux\(|Spawn\.run|Spawn\(|BurrowProcess|\.waitUntilExit\(\)/#
        let folder = DependencyTests.root.appendingPathComponent("Tests")
        let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        var waiting = 0
        for case let file as URL in files where file.pathExtension == "swift" {
            let path = file.path
            // The helpers are where the waits are written, not where tests run them.
            if path.contains("/TestSupport/") || path.contains("/Support/") || file.lastPathComponent == "WaitingTestsTests.swift" { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            guard text.contains(waits) else { continue }
            waiting += 1
            let onItsOwnThread = text.contains(".onAThreadOfItsOwn(")
            #expect(onItsOwnThread, "\(file.lastPathComponent) waits on its thread but does not run on a thread of its own")
        }
        // The tmux, process and sharing tests, at least: a scan that found none would prove nothing.
        #expect(waiting >= 30, "\(waiting) files wait")
    }
}
