import ObjectGraph

/// Links items written as rows (an import, a paste) to their tags, as rows too: tags are found by name in
/// the store once, those that are new are made as rows, and each link is a row of `Item_tags`.
struct TagLinker {
    private let context: Context
    /// Tags by name, read when the first tagged item comes (nil before).
    private var tagIDs: [String: Int64]?
    /// Links not yet handed to the context.
    private var rows: [[Value]] = []

    init(_ context: Context) { self.context = context }

    /// Links item `item` (a row ID) to the tags `names` (checked, each once, in order), making the tags that
    /// are new (their rows go to the context at once, before any link to them); returns the item's tag list,
    /// for its row.
    mutating func link(_ item: Int64, to names: [String]) throws -> Value {
        if tagIDs == nil {
            tagIDs = Dictionary(try Outline.storedTags(context).map { ($0.name, $0.id) }, uniquingKeysWith: { a, _ in a })
        }
        let checked = try Outline.checkedTags(names)
        for name in checked {
            let tag: Int64
            if let known = tagIDs![name] {
                tag = known
            } else {
                let id = try context.reserveObjectIDs(Tag.Slot.entity, count: 1)[0]
                var row = Tag.Slot.entity.defaults
                row[Tag.Slot.name] = .string(name)
                context.insertRows(Tag.Slot.entity, ids: [id], values: [row])
                tagIDs![name] = id.rowID
                tag = id.rowID
            }
            var link = Self.entity.defaults
            link[Self.source] = .integer(item)
            link[Self.target] = .integer(tag)
            rows.append(link)
        }
        return Item.list(ofTags: checked).map(Value.string) ?? .null
    }

    /// Hands the links made so far to the context: after the rows of their items, which they refer to.
    mutating func flush() throws {
        guard !rows.isEmpty else { return }
        context.insertRows(Self.entity, ids: try context.reserveObjectIDs(Self.entity, count: rows.count), values: rows)
        rows = []
    }

    private static let entity = OutlineModel.model.entity(Outline.links)!
    private static let source = entity.slot("source")!
    private static let target = entity.slot("target")!
}
