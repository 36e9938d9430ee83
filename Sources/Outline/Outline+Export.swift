import ObjectGraph

/// An export refused because the outline is deeper than the format holds (see
/// ``OutlineFormat/maximumLevels``): a reader would refuse the file, and it would be gigabytes.
public struct ExportTooDeep: UserFacingError, Equatable, Sendable {
    public let format: OutlineFormat
    public let limit: Int

    public var description: String {
        "the outline is more than \(limit) levels deep and \(format.rawValue) holds at most \(limit): export it as OPML or JSON"
    }
}

extension Outline {
    /// Bytes handed on at a time by ``export(_:as:title:checkingDepthFirst:write:progress:)``.
    public static let exportChunkSize = 64 * 1024

    /// Writes `item` with everything below it (for the top item, only what is below it) in `format` as
    /// saved, streaming: the items are read a batch of siblings at a time (`SubtreeWalk`) and each is written
    /// as it is read, the bytes handed to `write` in chunks of about ``exportChunkSize`` (each whole UTF-8
    /// text). Memory grows with the outline's depth, not its size. Returns how many items were written.
    ///
    /// A format that holds fewer levels than the outline has throws ``ExportTooDeep`` once the walk reaches
    /// one too deep, after writing what came before; with `checkingDepthFirst` the depth is looked at first
    /// (the branches only), so nothing is written at all (for output that cannot be taken back).
    ///
    /// ```swift
    /// try outline.export(try outline.root(), as: .opml, title: "Burrow", write: { file.write(Data($0)) })
    /// ```
    @discardableResult
    public func export(
        _ item: Item, as format: OutlineFormat, title: String, checkingDepthFirst: Bool = false, write: ([UInt8]) throws -> Void,
        progress: ((Int) -> Void)? = nil
    ) throws -> Int {
        try readingOneState {
            try streaming(item, as: format, title: title, checkingDepthFirst: checkingDepthFirst, write: write, progress: progress)
        }
    }

    /// How many items an export of `item` writes, for a progress bar: for the top item, every item stored but
    /// the top (one count of the table; an item a damaged store cannot reach from the top counts too), else
    /// the item and those below it, counted by following the parent keys.
    public func exportCount(of item: Item) throws -> Int {
        if item.isRoot { return max(0, try context.count(FetchRequest(Item.entityName)) - 1) }
        return try descendantCount(of: item) + 1
    }

    /// Runs `body` with every read on one state of the store, however other processes write meanwhile
    /// (`ExportSnapshotProcessTests`).
    private func readingOneState<T>(_ body: () throws -> T) throws -> T {
        try context.reading(body)
    }

    private func streaming(
        _ item: Item, as format: OutlineFormat, title: String, checkingDepthFirst: Bool, write: ([UInt8]) throws -> Void,
        progress: ((Int) -> Void)?
    ) throws -> Int {
        let limit = format.maximumLevels
        let includingStart = !item.isRoot
        if checkingDepthFirst, let limit { try refuseDeeper(than: limit, below: item, includingStart: includingStart, format: format) }
        let stream = ExportStream(context: context, start: item.objectID, includingStart: includingStart, limit: limit, format: format)
        switch format {
        case .opml: return try stream.run(OPMLWriter(title: title), write: write, progress: progress)
        case .json: return try stream.run(JSONWriter(), write: write, progress: progress)
        case .text: return try stream.run(IndentedTextWriter(), write: write, progress: progress)
        case .markdown:
            // As Org's: the top item's note is the outline's own text above the first item.
            return try stream.run(MarkdownWriter(preamble: item.isRoot ? item.note : nil), write: write, progress: progress)
        case .org:
            // The top item's note is the outline's own text above the first headline (an imported file's
            // settings and introduction).
            let preamble = item.isRoot ? item.note : nil
            let keywords = try orgKeywords(below: item, includingStart: includingStart, preamble: preamble)
            return try stream.run(OrgWriter(keywords: keywords, preamble: preamble), write: write, progress: progress)
        }
    }

    /// Throws ``ExportTooDeep`` when the subtree has more than `limit` levels, walking only the items with
    /// sub-items.
    private func refuseDeeper(than limit: Int, below item: Item, includingStart: Bool, format: OutlineFormat) throws {
        var walk = try SubtreeWalk(context: context, below: item.objectID, keys: [], includingStart: includingStart, branchesOnly: true)
        while let step = try walk.next() {
            // A branch at depth d has items at depth d + 1: d + 2 levels.
            if case .enter(_, _, let depth, _) = step, depth + 2 > limit { throw ExportTooDeep(format: format, limit: limit) }
        }
    }

    /// The Org keyword lines of the notes to be written (see `OrgKeywords`), then the states of the items
    /// to be written that no line declares: a walk of the subtree, only when some note in the store has a
    /// keyword line or some item a state.
    private func orgKeywords(below item: Item, includingStart: Bool, preamble: String?) throws -> OrgKeywords {
        var keywords = OrgKeywords()
        if let preamble { keywords.scan(note: preamble) }
        let lines = try context.count(FetchRequest(Item.entityName, where: Property("note").contains("#+"))) > 0
        let states = try context.count(FetchRequest(Item.entityName, where: !Property("state").isNil)) > 0
        guard lines || states else { return keywords }
        var found: [(String, Bool)] = []
        var walk = try SubtreeWalk(context: context, below: item.objectID, keys: ["note", "state", "done"], includingStart: includingStart)
        while let step = try walk.next() {
            guard case .enter(_, let values, _, _) = step else { continue }
            if case .string(let note) = values[0] { keywords.scan(note: note) }
            if case .string(let state) = values[1] { found.append((state, values[2] == .bool(true))) }
        }
        for (state, done) in found { keywords.include(state: Array(state.utf8), done: done) }
        return keywords
    }
}

/// One export's walk and writer: the items read as the writer takes them.
private struct ExportStream {
    let context: Context
    let start: ObjectID
    let includingStart: Bool
    let limit: Int?
    let format: OutlineFormat

    func run<W: OutlineWriter>(_ writer: W, write: ([UInt8]) throws -> Void, progress: ((Int) -> Void)?) throws -> Int {
        var writer = writer
        var walk = try SubtreeWalk(context: context, below: start, keys: ["title", "note", "done"] + Item.extrasKeys, includingStart: includingStart)
        var out: [UInt8] = []
        out.reserveCapacity(Outline.exportChunkSize + 4096)
        var count = 0
        writer.begin(into: &out)
        while let step = try walk.next() {
            switch step {
            case .enter(_, let values, let depth, let hasChildren):
                if let limit, depth + 1 > limit { throw ExportTooDeep(format: format, limit: limit) }
                let title: String = if case .string(let t) = values[0] { t } else { "" }
                let note: String? = if case .string(let n) = values[1] { n } else { nil }
                let done = if case .bool(let b) = values[2] { b } else { false }
                let extras = OutlineNode.Extras(stored: values[3...])
                writer.enter(OutlineNode(title, note: note, isDone: done, extras: extras), depth: depth, hasChildren: hasChildren, into: &out)
                count += 1
                if count % 4096 == 0 { progress?(count) }
            case .leave(let depth):
                writer.leave(depth: depth, into: &out)
            }
            if out.count >= Outline.exportChunkSize {
                try write(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        writer.end(into: &out)
        try write(out)
        progress?(count)
        return count
    }
}
