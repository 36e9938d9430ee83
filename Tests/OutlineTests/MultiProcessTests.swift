import Foundation
import ObjectGraph
import Testing

@testable import Outline

/// Several real `burrow` processes writing the same store at the same moment: every value a save derives
/// from stored state (child counts, order keys) must come out as if they had run one after another.
@Suite(.serialized) struct MultiProcessTests {
    final class Folder: Sendable {
        let url: URL
        init() {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("multi-\(UUID().uuidString)")
            try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        func db(_ name: String = "o.sqlite") -> String { url.appendingPathComponent(name).path }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// What is wrong with the stored outline, read without trusting any stored count.
    static func problems(_ path: String) throws -> [String] {
        let o = try Outline(path: path)
        var out: [String] = []
        let all = try o.context.fetch(FetchRequest("Item"))
        var children: [Int64: [Item]] = [:]
        for i in 0..<all.count {
            let item = all[i] as! Item
            if let p = item.parent { children[p.objectID.rowID, default: []].append(item) }
        }
        for i in 0..<all.count {
            let item = all[i] as! Item
            let kids = children[item.objectID.rowID] ?? []
            if item.childCount != kids.count {
                out.append("#\(item.objectID.rowID) stores \(item.childCount) sub-items but has \(kids.count)")
            }
            let keys = kids.map(\.order)
            if Set(keys).count != keys.count {
                out.append("#\(item.objectID.rowID) has \(keys.count - Set(keys).count) repeated order keys")
            }
        }
        return out
    }

    /// `burrow add x --under P` at the same moment as `burrow rm P/c0` (P's only child): the count must
    /// end at 1 and export must show x. The old code read the count before its transaction.
    @Test func addingWhileRemovingASiblingKeepsTheCountAndExportWhole() throws {
        let folder = Folder()
        var failures: [String] = []
        for trial in 0..<40 {
            let db = folder.db("t\(trial).sqlite")
            #expect(BurrowProcess.run(["add", "P", "--db", db]).status == 0)
            #expect(BurrowProcess.run(["add", "c0", "--under", "P", "--db", db]).status == 0)
            let results = BurrowProcess.concurrently(2) { i in
                i == 0 ? BurrowProcess.run(["add", "x", "--under", "P", "--db", db])
                    : BurrowProcess.run(["rm", "P/c0", "--db", db])
            }
            #expect(results.map(\.status) == [0, 0], "\(results.map(\.err))")
            let exported = BurrowProcess.run(["export", "--format", "text", "--db", db])
            if exported.out != "P\n\tx\n" { failures.append("trial \(trial): export gave \(exported.out.debugDescription)") }
            failures += try Self.problems(db).map { "trial \(trial): \($0)" }
        }
        #expect(failures == [])
    }

    /// Four processes appending to one level at once: every add counted, every key distinct.
    @Test func concurrentAppendsKeepCountAndDistinctKeys() throws {
        let folder = Folder()
        let db = folder.db()
        #expect(BurrowProcess.run(["add", "P", "--db", db]).status == 0)
        let perWorker = 40
        let results = BurrowProcess.concurrently(4) { w in
            (0..<perWorker).map { k in BurrowProcess.run(["add", "w\(w)-\(k)", "--under", "P", "--db", db]).status }
        }
        #expect(results.flatMap { $0 }.allSatisfy { $0 == 0 })
        #expect(try Self.problems(db) == [])
        let o = try Outline(path: db)
        let p = try o.item(at: "P")
        #expect(try o.children(of: p).count == 4 * perWorker)
        #expect(p.childCount == 4 * perWorker)
    }
}
