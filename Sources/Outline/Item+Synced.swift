import ObjectGraph

/// What sharing keeps of an item beyond its place, title, note and done: its task fields, properties, Org
/// headline and tag list, by attribute name (the links to tags and the agenda day follow from them).
extension Item {
    /// The attributes shared, in order.
    public static let syncedExtrasKeys = ["state", "priority", "scheduled", "deadline", "closed", "properties", "orgHead", "tagList"]

    /// Its shared extras that have a value, by attribute name.
    public var syncedExtras: [String: String] {
        var out: [String: String] = [:]
        for key in Item.syncedExtrasKeys { if case .string(let s) = self[key] { out[key] = s } }
        return out
    }
}

extension Outline {
    /// Gives `item` the shared extras `extras` says (a key missing: none), as another device or the server
    /// has them: the links to its tags follow its tag list, the agenda day its dates. Not a user's edit: the
    /// time it was changed stays.
    public func setSyncedExtras(_ extras: [String: String], of item: Item) throws {
        var tagsChanged = false
        for key in Item.syncedExtrasKeys {
            let want: Value = extras[key].map(Value.string) ?? .null
            guard item[key] != want else { continue }
            item[key] = want
            if key == "tagList" { tagsChanged = true }
        }
        item.keepAgendaDay()
        if tagsChanged { try relinkTags(item.objectID) }
    }
}
