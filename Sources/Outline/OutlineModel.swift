import ObjectGraph

/// The outliner's data model.
public enum OutlineModel {
    /// Version 3: `Item` with title, note, done, order key, child count, when it was created and last
    /// changed, and the parent/children tree. Version 1 kept the child count in the outline's edits; since 2
    /// the store maintains it in each write transaction (opening a version-1 store recounts every item once;
    /// version-1 programs refuse it). Version 3 added `created` and `modified`: items from before have none
    /// (a lightweight migration adds the columns; reading an older store without migrating shows them as
    /// unknown). Version 4 added `expanded`, whether the item is folded open in place (1, else NULL), with
    /// an index of the open items only, and `hidesDone` on the top item (the outline's "hide done items"
    /// setting): view state, which undo leaves alone (see `Attribute.viewState`). Version 5 added a
    /// full-text index of titles and notes (search) and an index of (parent, title) (paths by title); the
    /// migration builds both from the items stored. Version 6 added what org-mode and Logseq users organise
    /// with: `state` (a task's keyword, `TODO`, `DONE` or the outline's own; nil for a plain item; `done`
    /// follows it), `priority` (`A`, `B`, …), `scheduled`, `deadline` and `closed` (timestamps as
    /// `2026-05-01 09:00 +1w`, so they sort as text), `properties` (an org property drawer's lines) and
    /// `orgHead` (an org headline's own text, kept while it still says what the item says, so an unchanged
    /// file is written back byte for byte), with indexes of the items planned and due (the agenda's).
    /// Version 7 added tags: a `Tag` entity (a unique `name`) and the many-to-many `Item.tags`/`Tag.items`
    /// (kept as rows of `Item_tags`), and `tagList` on the item, its tags in order as `:work:home:`, which
    /// every edit keeps equal to its links; deleting an item takes its links away. The migration adds the
    /// two tables and the column. Version 8 added `agendaDay`, the earlier of the days an item is planned and
    /// due (`2026-05-01`), kept with them by every edit, indexed: the agenda's order, one index range per view;
    /// and an index of the tagged items' lists, which a tag's view reads instead of every item.
    /// An upgraded store gets its items' days when a writer first opens it.
    public static let model: Model = {
        do {
            return try declared(searchIndex: true)
        } catch {
            fatalError("the outline model is invalid: \(error)")
        }
    }()

    /// The model as declared, with or without its full-text index: without, it is what the benchmark
    /// measures the index's cost against (the same tables and indexes otherwise). Only `model` opens stores.
    public static func declared(searchIndex: Bool) throws -> Model {
        try Model(version: 8) {
            Entity(Item.entityName, type: Item.self) {
                Attribute("title", .string, default: "")
                Attribute("note", .string, optional: true)
                Attribute("done", .bool, default: false)
                Attribute("order", .string, default: "a0")
                Attribute.count("childCount", of: "children")
                // 1 on the root, NULL elsewhere: the unique index makes a second root impossible,
                // even when two processes create one at the same time.
                Attribute("rootMarker", .integer64, optional: true, unique: true)
                Attribute("created", .date, optional: true)
                Attribute("modified", .date, optional: true)
                Attribute.viewState("expanded", .bool, optional: true)
                // On the top item only: the outline's "hide done items" setting (`H`), NULL when never set.
                Attribute.viewState("hidesDone", .bool, optional: true)
                Attribute("state", .string, optional: true)
                Attribute("priority", .string, optional: true)
                Attribute("scheduled", .string, optional: true)
                Attribute("deadline", .string, optional: true)
                Attribute("closed", .string, optional: true)
                Attribute("properties", .string, optional: true)
                Attribute("orgHead", .string, optional: true)
                // The item's tags as `:work:home:`, kept equal to its links to `Tag`s by every edit: what a row
                // shows and an export writes, read with the item (the links are the index of a tag's items).
                Attribute("tagList", .string, optional: true)
                // The earlier day of `scheduled` and `deadline`, kept with them: what the agenda sorts by.
                Attribute("agendaDay", .string, optional: true)
                Relationship.toOne("parent", Item.entityName, inverse: "children")
                Relationship.toMany("children", Item.entityName, inverse: "parent", deleteRule: .cascade)
                Relationship.toMany("tags", Tag.entityName, inverse: "items")
                CompoundIndex("parent", "order")
                // The open items of a level are found without reading the level.
                CompoundIndex("expanded", "parent", sparse: true)
                // A path's title is found among its parent's items without reading them all.
                CompoundIndex("parent", "title")
                // The agenda's days: the few items planned or due are found without reading the rest.
                CompoundIndex("scheduled", sparse: true)
                CompoundIndex("deadline", sparse: true)
                // In the agenda's order: its first screen is the index's first entries.
                CompoundIndex("agendaDay", "order", "done", sparse: true)
                // A tag's items: only the tagged items' lists are read (`ItemQuery`'s `tag:`), not every item.
                CompoundIndex("tagList", sparse: true)
                if searchIndex { FullTextIndex("title", "note") }
            }
            Entity(Tag.entityName, type: Tag.self) {
                // A tag is found or made inside the write transaction (`Outline.setTags`), so two processes
                // never make two of a name; the index makes sure a tag's items are never split between rows.
                Attribute("name", .string, default: "", unique: true)
                Relationship.toMany("items", Item.entityName, inverse: "tags")
            }
        }
    }
}
