import ObjectGraph

/// Tags: names items are tagged with (`#work`), kept as `Tag` objects linked to their items.
extension Outline {
    /// The tags of item `id`, in the order they were given.
    public func tags(of id: ObjectID) throws -> [String] {
        guard let item = try context.existingObject(for: id) as? Item else { return [] }
        return item.tagNames
    }

    /// Gives item `id` exactly `names` as its tags, in that order (a name given twice counts once), making
    /// tags no item had before. A name that cannot be a tag is refused before anything changes.
    public func setTags(_ id: ObjectID, _ names: [String]) throws {
        let item = try resolve(id)
        let wanted = try Self.checkedTags(names)
        if item.tagNames == wanted { return }
        // The links say which items a tag has; the item's list says its tags in order.
        let held = item.objects("tags").compactMap { $0 as? Tag }
        for tag in held where !wanted.contains(tag.name) { item.remove(tag, from: "tags") }
        let kept = Set(held.map(\.name))
        for tag in try tagObjects(wanted.filter { !kept.contains($0) }) { item.add(tag, to: "tags") }
        item.tagList = Item.list(ofTags: wanted)
        item.touch()
    }

    /// Adds `names` after item `id`'s tags (those it has stay where they are).
    public func addTags(_ names: [String], to id: ObjectID) throws {
        let have = try tags(of: id)
        try setTags(id, have + names.filter { !have.contains($0) })
    }

    /// Takes `names` off item `id`'s tags.
    public func removeTags(_ names: [String], from id: ObjectID) throws {
        try setTags(id, try tags(of: id).filter { !names.contains($0) })
    }

    /// Every tag some item has, by name, with how many items have it.
    public func allTags() throws -> [(name: String, count: Int)] {
        let links = try context.fetchValues(FetchRequest(Self.links), keys: ["source", "target"])
        var items: [Int64: Set<Int64>] = [:]
        for (_, v) in links {
            if case .integer(let item) = v[0], case .integer(let tag) = v[1] { items[tag, default: []].insert(item) }
        }
        let names = try tagNames()
        return items.compactMap { tag, set in names[tag].map { (name: $0, count: set.count) } }.sorted { $0.name < $1.name }
    }

    /// The items tagged `name`, by row ID (ascending); none when no such tag exists.
    public func items(tagged name: String) throws -> [ObjectID] {
        let tags = try context.fetch(FetchRequest(Tag.entityName, where: Property("name") == name)).rowIDs
        guard !tags.isEmpty else { return [] }
        var ids = Set<Int64>()
        for (_, v) in try context.fetchValues(FetchRequest(Self.links, where: Property("target").oneOf(tags)), keys: ["source"]) {
            if case .integer(let item) = v[0] { ids.insert(item) }
        }
        return ids.sorted().map { ObjectID(entity: Item.entityIndex, rowID: $0) }
    }

    /// Items whose list of tags (`tagList`) and links to tags say different things: what `check` reports
    /// and `repair` mends (the list, which keeps the order, is taken as meant). Reads every item with a list
    /// and every link once.
    func tagDisagreements() throws -> [(item: Int64, listed: [String], linked: Set<String>)] {
        var listed: [Int64: [String]] = [:]
        for (id, v) in try context.fetchValues(FetchRequest(Item.entityName, where: !Property("tagList").isNil), keys: ["tagList"]) {
            if case .string(let list) = v[0] { listed[id.rowID] = Item.tags(ofList: list) }
        }
        let names = try tagNames()
        var linked: [Int64: Set<String>] = [:]
        for (_, v) in try context.fetchValues(FetchRequest(Self.links), keys: ["source", "target"]) {
            guard case .integer(let item) = v[0], case .integer(let tag) = v[1] else { continue }
            linked[item, default: []].insert(names[tag] ?? "(tag #\(tag), gone)")
        }
        var out: [(item: Int64, listed: [String], linked: Set<String>)] = []
        for item in Set(listed.keys).union(linked.keys).sorted() {
            let list = listed[item] ?? [], links = linked[item] ?? []
            if Set(list) != links { out.append((item, list, links)) }
        }
        return out
    }

    /// Makes item `id`'s links follow its list: links to tags the list does not name go, tags it names get
    /// links (names that cannot be tags leave the list).
    func relinkTags(_ id: ObjectID) throws {
        guard let item = try context.existingObject(for: id) as? Item else { return }
        let wanted = item.tagNames.filter { Tag.problem(with: $0) == nil }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        for link in item.objects("tags") {
            // A link to a tag whose row is gone goes too (its name cannot be read).
            let tag = try context.existingObject(for: link.objectID) as? Tag
            if !(tag.map { wanted.contains($0.name) } ?? false) { item.remove(link, from: "tags") }
        }
        let held = Set(item.objects("tags").compactMap { ($0 as? Tag)?.name })
        for tag in try tagObjects(wanted.filter { !held.contains($0) }) { item.add(tag, to: "tags") }
        if item.tagList != Item.list(ofTags: wanted) { item.tagList = Item.list(ofTags: wanted) }
    }

    /// The join entity of `Item.tags`.
    static let links = "Item_tags"

    /// `names` without repeats, each one a tag can be; else the error for the first that cannot.
    static func checkedTags(_ names: [String]) throws -> [String] {
        var out: [String] = []
        for name in names where !out.contains(name) {
            if let why = Tag.problem(with: name) { throw OutlineError.badTag(name, why) }
            out.append(name)
        }
        return out
    }

    /// The tag objects named `names`, in order, made where none exists: read inside the write transaction,
    /// so a tag another process made a moment ago is found, not made twice.
    func tagObjects(_ names: [String]) throws -> [Tag] {
        guard !names.isEmpty else { return [] }
        var found: [String: Tag] = [:]
        for object in try context.fetch(FetchRequest(Tag.entityName, where: Property("name").oneOf(names))) {
            if let tag = object as? Tag { found[tag.name] = tag }
        }
        return try names.map { name in
            if let tag = found[name] { return tag }
            let tag = try context.insert(Tag.entityName) as! Tag
            tag.name = name
            found[name] = tag
            return tag
        }
    }

    /// Tag names by row ID: every tag's (an outline has few tags, however many items have them).
    private func tagNames() throws -> [Int64: String] {
        Dictionary(try Self.storedTags(context).map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
    }

    /// Every stored tag's row ID and name, read as values (no objects).
    static func storedTags(_ context: Context) throws -> [(id: Int64, name: String)] {
        try context.fetchValues(FetchRequest(Tag.entityName), keys: ["name"]).compactMap { id, v in
            if case .string(let name) = v[0] { (id.rowID, name) } else { nil }
        }
    }
}
