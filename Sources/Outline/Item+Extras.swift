import ObjectGraph

extension Item {
    /// The names of the attributes an `OutlineNode.Extras` is stored in, in its order, then its tag list.
    static let extrasKeys = ["state", "priority", "scheduled", "deadline", "closed", "properties", "orgHead", "tagList"]

    /// Items that say anything beyond title, note and done.
    static var hasExtras: ObjectPredicate { .or(extrasKeys.map { !Property($0).isNil }) }
}

extension OutlineNode.Extras {
    /// The extras in stored values read with `Item.extrasKeys`, nil when they say nothing.
    init?(stored values: some Collection<Value>) {
        let strings: [String?] = values.map { if case .string(let s) = $0 { s } else { nil } }
        self.init(values: Array(strings.dropLast()), tagList: strings.last ?? nil)
    }
}

extension Outline {
    /// The extras (state, priority, dates) of every item that has any, by row ID: most items have none, so
    /// this reads few rows.
    public func storedExtras() throws -> [Int64: OutlineNode.Extras] {
        var out: [Int64: OutlineNode.Extras] = [:]
        for (id, values) in try context.fetchValues(FetchRequest(Item.entityName, where: Item.hasExtras), keys: Item.extrasKeys) {
            out[id.rowID] = OutlineNode.Extras(stored: values)
        }
        return out
    }

    /// The same for the sub-items of `parents` alone (by the parent's row ID), through the index of parent
    /// keys: listing a level of a huge outline reads that level, not every row.
    public func storedExtras(under parents: some Collection<Int64>) throws -> [Int64: OutlineNode.Extras] {
        var out: [Int64: OutlineNode.Extras] = [:]
        let all = Array(Set(parents))
        var start = 0
        while start < all.count {
            // Well under SQLite's 32,766 parameters per statement.
            let chunk = Array(all[start..<min(all.count, start + 8192)])
            start += chunk.count
            let request = FetchRequest(Item.entityName, where: Property("parent").oneOf(chunk) && Item.hasExtras)
            for (id, values) in try context.fetchValues(request, keys: Item.extrasKeys) { out[id.rowID] = OutlineNode.Extras(stored: values) }
        }
        return out
    }
}
