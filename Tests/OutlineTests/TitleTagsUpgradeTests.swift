import Foundation
import ObjectGraph
import TestSupport
import Testing

@testable import Outline

/// A store from before version 7 kept an Org headline's tags at the end of its title (`Ship   :work:`).
/// The first writer that opens it moves them into the item's tags once, so that the file is still written
/// back byte for byte and Emacs still sees its tags.
@Suite struct TitleTagsUpgradeTests {
    /// The outline model as version 6 declared it (no tags).
    static let version6 = try! Model(version: 6) {
        Entity("Item") {
            Attribute("title", .string, default: "")
            Attribute("note", .string, optional: true)
            Attribute("done", .bool, default: false)
            Attribute("order", .string, default: "a0")
            Attribute.count("childCount", of: "children")
            Attribute("rootMarker", .integer64, optional: true, unique: true)
            Attribute("created", .date, optional: true)
            Attribute("modified", .date, optional: true)
            Attribute.viewState("expanded", .bool, optional: true)
            Attribute.viewState("hidesDone", .bool, optional: true)
            Attribute("state", .string, optional: true)
            Attribute("priority", .string, optional: true)
            Attribute("scheduled", .string, optional: true)
            Attribute("deadline", .string, optional: true)
            Attribute("closed", .string, optional: true)
            Attribute("properties", .string, optional: true)
            Attribute("orgHead", .string, optional: true)
            Relationship.toOne("parent", "Item", inverse: "children")
            Relationship.toMany("children", "Item", inverse: "parent", deleteRule: .cascade)
            CompoundIndex("parent", "order")
            CompoundIndex("expanded", "parent", sparse: true)
            CompoundIndex("parent", "title")
            CompoundIndex("scheduled", sparse: true)
            CompoundIndex("deadline", sparse: true)
            FullTextIndex("title", "note")
        }
    }

    /// The file a version-6 Burrow imported, and what that import stored: titles with their tag groups,
    /// the headline's own text only where the writer of the day would have written it otherwise.
    static let file = """
        * Ship   :work:
        ** TODO Call Bob :phone:
           SCHEDULED: <2026-05-01 Fri>
        * TODO Spaced   :a:b:
         SCHEDULED: <2026-05-01 Fri>
        * Plain: no tags here
        * Time 10:30:
        * Looks :like:tags:

        """

    static let modified = Date(timeIntervalSince1970: 1_700_000_000)

    func makeVersion6Store(at path: String) throws {
        let c = Context(store: try Store(path: path, model: Self.version6))
        let root = try c.insert("Item")
        root["title"] = "Burrow"
        root["rootMarker"] = 1
        var order = 0
        func add(_ title: String, under parent: ManagedObject, _ values: [String: String] = [:]) throws -> ManagedObject {
            let item = try c.insert("Item")
            item["title"] = title
            order += 1
            item["order"] = "a\(order)"
            item["modified"] = Self.modified
            for (k, v) in values { item[k] = v }
            item.setObject(parent, for: "parent")
            return item
        }
        let ship = try add("Ship   :work:", under: root)
        _ = try add("Call Bob :phone:", under: ship, ["state": "TODO", "scheduled": "2026-05-01"])
        // Its planning line indented otherwise than the writer does: the headline's text was kept.
        _ = try add(
            "Spaced   :a:b:", under: root,
            ["state": "TODO", "scheduled": "2026-05-01", "orgHead": "TODO Spaced   :a:b:\n SCHEDULED: <2026-05-01 Fri>"])
        _ = try add("Plain: no tags here", under: root)
        _ = try add("Time 10:30:", under: root)
        // Emacs read tags here all along.
        _ = try add("Looks :like:tags:", under: root)
        try c.save()
        c.store.checkpoint()
    }

    func org(_ o: Outline) throws -> String {
        var bytes: [UInt8] = []
        try o.export(try o.root(), as: .org, title: "Upgrade", write: { bytes += $0 })
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func titleTagsBecomeTagsOnceAndTheFileIsWrittenBack() throws {
        let dir = TemporaryDirectory("burrow-title-tags")
        defer { withExtendedLifetime(dir) {} }
        let path = dir.path()
        try makeVersion6Store(at: path)
        do {
            // A reader changes nothing: the titles are read as stored.
            let reader = try Outline(readingAt: path)
            #expect(try reader.children(of: try reader.root()).first?.title == "Ship   :work:")
        }
        let o = try Outline(path: path)
        let top = try o.children(of: try o.root())
        #expect(top.map(\.title) == ["Ship", "Spaced", "Plain: no tags here", "Time 10:30:", "Looks"])
        #expect(top.map(\.tagNames) == [["work"], ["a", "b"], [], [], ["like", "tags"]])
        let call = try #require(try o.children(of: top[0]).first)
        #expect(call.title == "Call Bob" && call.tagNames == ["phone"] && call.state == "TODO")
        #expect(call.agendaDay == "2026-05-01" && top[1].agendaDay == "2026-05-01" && top[0].agendaDay == nil, "version 8's days")
        #expect(try o.items(tagged: "work") == [top[0].objectID])
        #expect(top[0].modified == Self.modified, "not the user's change")
        #expect(try o.check().isEmpty)
        let written = try org(o)
        #expect(written == Self.file, "\(written)")
        // Not an action of the user's: nothing to undo.
        #expect(o.context.undoHistory.canUndo == false)

        // Once: a title that ends as tags later (typed by the user) stays a title.
        try o.perform { try o.rename(top[3].objectID, to: "Later :kept:") }
        let again = try Outline(path: path)
        let later = try #require(try again.children(of: try again.root()).first { $0.title.hasPrefix("Later") })
        #expect(later.title == "Later :kept:" && later.tagNames.isEmpty)
    }

    /// A shared store: what was done offline under version 6 and not sent yet is still in the outbox after
    /// the upgrade, readable in version 8's numbers, and the upgrade's own change to titles and tags follows it
    /// as an action to send (else other devices keep the tag groups in their titles, and a repair puts them
    /// back here), not as one to undo.
    @Test func aSharedStoreSendsWhatItDidOfflineAndTheUpgrade() throws {
        let dir = TemporaryDirectory("burrow-title-tags-shared")
        defer { withExtendedLifetime(dir) {} }
        let path = dir.path()
        try makeVersion6Store(at: path)
        do {
            let store = try Store(path: path, model: Self.version6)
            try store.setOutbox(enabled: true)
            let c = Context(store: store)
            let plain = try #require(try c.fetch(FetchRequest("Item", where: Property("title") == "Plain: no tags here")).first)
            plain["title"] = "Plain, renamed offline"
            try c.save(actionName: "Rename")
        }
        let o = try Outline(path: path)
        let entries = try o.context.store.outbox(after: 0)
        #expect(entries.map(\.name) == ["Rename", "Upgrade: tags from titles"])
        let rename = try #require(entries[0].objects.first)
        #expect(rename.before?["title"] == .string("Plain: no tags here") && rename.after?["title"] == .string("Plain, renamed offline"))
        let ship = try #require(entries[1].objects.first { $0.before?["title"] == .string("Ship   :work:") })
        #expect(ship.after?["title"] == .string("Ship") && ship.after?["tagList"] == .string(":work:"))
        #expect(entries[1].kind == .action && entries[1].history == nil)
        #expect(o.context.undoHistory.canUndo == false)
    }

    /// A store made at version 7 was never upgraded: a title like `x :y:` there is what the user typed.
    @Test func aNewStoreIsLeftAlone() throws {
        let dir = TemporaryDirectory("burrow-title-tags-new")
        defer { withExtendedLifetime(dir) {} }
        let path = dir.path()
        do {
            let o = try Outline(path: path)
            try o.perform { _ = try o.append(titles: ["Meeting :x:"], to: try o.root().objectID) }
        }
        let o = try Outline(path: path)
        #expect(try o.children(of: try o.root()).map(\.title) == ["Meeting :x:"])
        #expect(try o.context.store.upgradedVersions() == [])
    }
}
