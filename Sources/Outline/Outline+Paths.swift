import ObjectGraph

/// Why a path names no single item.
public struct PathError: UserFacingError, Equatable, Sendable {
    public let message: String
    public var description: String { message }
}

extension Outline {
    /// The item a path names: titles from the top joined by `/` (`Groceries/Dairy`; write `\/` for a
    /// slash and `\\` for a backslash inside a title), or `#ID` as `ls --ids` shows. An empty path or `/`
    /// is the top of the outline.
    ///
    /// ```swift
    /// let dairy = try outline.item(at: "Groceries/Dairy")
    /// ```
    public func item(at path: String) throws -> Item {
        let root = try root()
        if path.hasPrefix("#"), let id = Int64(path.dropFirst()) {
            guard let item = try context.existingObject(for: ObjectID(entity: Item.Slot.entity.index, rowID: id)) as? Item else {
                throw PathError(message: "no item has the ID #\(id)")
            }
            return item
        }
        var current = root
        var walked: [String] = []
        for segment in Outline.segments(path) {
            // Through the (parent, title) index: a level of a million items is not read to find one. In ID
            // order: sorted by order key, SQLite would walk the level by the (parent, order) index instead.
            var named = FetchRequest(Item.entityName, where: Property("parent") == current.objectID && Property("title") == segment)
            named.limit = 13
            var matches = try Outline.items(context.fetch(named))
            if matches.isEmpty { matches = try loosely(segment, under: current) }
            let here = walked.isEmpty ? "the top level" : "“\(walked.joined(separator: "/"))”"
            switch matches.count {
            case 1:
                current = matches[0]
            case 0:
                var first = Outline.level(of: current.objectID)
                first.limit = 13
                let kids = try Outline.items(context.fetch(first))
                let list = kids.prefix(12).map { "“\($0.title)”" }.joined(separator: ", ")
                throw PathError(
                    message: "no item “\(segment)” in \(here)"
                        + (kids.isEmpty ? " (it has no items)" : "; it has \(list)\(kids.count > 12 ? ", …" : "")"))
            default:
                let list = matches.prefix(12).map { "#\($0.objectID.rowID)" }.joined(separator: ", ")
                let n = matches.count > 12 ? "more than 12" : "\(matches.count)"
                throw PathError(
                    message: "“\(segment)” is ambiguous in \(here): \(n) items have that title (\(list)\(matches.count > 12 ? ", …" : "")); use an ID"
                )
            }
            walked.append(segment)
        }
        return current
    }

    /// The sub-items of `parent` whose title is `segment` ignoring case and diacritics (as search compares),
    /// at most 13: what a path segment names when no title matches it exactly. Reads the level's titles only.
    private func loosely(_ segment: String, under parent: Item) throws -> [Item] {
        let folded = TextFolding.fold(segment)
        var out: [Item] = []
        for (id, values) in try context.fetchValues(Outline.level(of: parent.objectID), keys: ["title"]) {
            guard case .string(let title) = values[0], TextFolding.fold(title) == folded else { continue }
            if let item = try context.existingObject(for: id) as? Item { out.append(item) }
            if out.count == 13 { break }
        }
        return out
    }

    /// The path of titles from the top to `item`, escaped so that `item(at:)` reads it back.
    public func path(of item: Item) -> String {
        var parts: [String] = []
        var x: Item? = item
        while let i = x, !i.isRoot {
            parts.append(i.title.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "/", with: "\\/"))
            x = i.parent
        }
        return parts.reversed().joined(separator: "/")
    }

    private static func items(_ results: FetchResults) -> [Item] {
        (0..<results.count).compactMap { results[$0] as? Item }
    }

    /// Splits a path on unescaped slashes.
    static func segments(_ path: String) -> [String] {
        var out: [String] = []
        var current = ""
        var escaped = false
        for c in path {
            if escaped {
                current.append(c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == "/" {
                if !current.isEmpty { out.append(current) }
                current = ""
            } else {
                current.append(c)
            }
        }
        if escaped { current.append("\\") }
        if !current.isEmpty { out.append(current) }
        return out
    }
}
