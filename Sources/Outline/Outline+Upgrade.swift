import ObjectGraph

/// Steps on stored data that a new version of the model reads otherwise, run once by the first process
/// that opens an upgraded store for writing (the schema's own migration is ObjectGraph's).
extension Outline {
    /// The app value that says the titles of a store from before version 7 were looked at.
    static let titleTagsMovedKey = "outline.titleTagsMoved"
    /// The app value that says the items of a store from before version 8 have their agenda days.
    static let agendaDaysKey = "outline.agendaDays"

    /// Runs the steps the store still needs, each in one write transaction with the flag that says it ran
    /// (two processes opening at once run it once); none for a store made at the current version. A step
    /// that changes what replicas share (titles, tags) is sent as an action no one can undo; one that only
    /// derives local values is not sent.
    func upgradeStoredData() throws {
        guard !context.store.isReadOnly else { return }
        let from = try context.store.upgradedVersions()
        guard let oldest = from.first else { return }
        var steps: [(key: String, shared: String?, run: () throws -> Void)] = []
        if oldest < 7 { steps.append((Self.titleTagsMovedKey, "Upgrade: tags from titles", moveTitleTags)) }
        if oldest < 8 { steps.append((Self.agendaDaysKey, nil, setAgendaDays)) }
        for step in steps where try context.store.appValue(step.key) == nil {
            let run = {
                guard try self.context.store.appValue(step.key) == nil else { return }
                try step.run()
                try self.context.store.setAppValue(step.key, "1")
            }
            if let name = step.shared {
                try context.transactionOutsideUndo(actionName: name, run)
            } else {
                try context.transactionWithoutUndo(run)
            }
        }
    }

    /// Every planned or due item's agenda day (version 8 keeps it with the dates).
    func setAgendaDays() throws {
        let dated = try context.fetch(FetchRequest(Item.entityName, where: !Property("scheduled").isNil || !Property("deadline").isNil))
        for case let item as Item in dated { item.keepAgendaDay() }
    }

    /// Before version 7 an Org headline's tags (`* Ship   :work:`) stayed at the end of its title; Org
    /// reads them as tags, so does Burrow now. Each such title loses its tag group to the item's tags, and
    /// keeps the headline as the file had it (`orgHead`), so an unchanged file is still written back byte
    /// for byte.
    func moveTitleTags() throws {
        let candidates = try context.fetch(FetchRequest(Item.entityName, where: Property("title").endsWith(":")))
        for case let item as Item in candidates where !item.isRoot {
            let title = Array(item.title.utf8)
            guard let (tags, _) = OrgHead.tagsAtEnd(title[...]), tags.allSatisfy({ Tag.problem(with: $0) == nil }) else {
                continue
            }
            var keywords = OrgKeywords()
            var depth = 0
            var at = item.parent
            while let a = at, !a.isRoot, depth < OutlineBuilder.maximumLevels {
                if let note = a.note, note.contains("#+") { keywords.scan(note: note) }
                depth += 1
                at = a.parent
            }
            if let note = at?.note, note.contains("#+") { keywords.scan(note: note) }
            if let state = item.state { keywords.include(state: Array(state.utf8), done: item.isDone) }
            var node = OutlineNode(item.title, isDone: item.isDone, extras: item.extras)
            // The headline as it was read (or, when the reader kept none, as the earlier writer wrote it:
            // today's writer marks a title that ends as tags would, which that one did not).
            let raw: [[UInt8]]
            if let kept = node.extras?.orgHead {
                raw = kept.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) }
            } else {
                var lines = OrgHead(node, keywords: keywords, title: title).lines(depth: depth, keywords: keywords)
                if lines[0].suffix(OrgOutline.zeroWidthSpace.count).elementsEqual(OrgOutline.zeroWidthSpace) {
                    lines[0].removeLast(OrgOutline.zeroWidthSpace.count)
                }
                raw = lines
            }
            let (head, taken) = OrgHead.read(
                raw[0], section: { k in k + 1 < raw.count ? raw[k + 1] : nil }, keywords: keywords)
            // Only what the reader now takes as the same head with tags: anything else stays as it is.
            guard taken == raw.count - 1, !head.tags.isEmpty, head.isDone == item.isDone else { continue }
            var extras = node.extras ?? OutlineNode.Extras()
            extras.tags = head.tags
            extras.orgHead = nil
            node = OutlineNode(String(decoding: head.title, as: UTF8.self), isDone: item.isDone, extras: extras)
            let written = OrgHead(node, keywords: keywords, title: head.title).lines(depth: depth, keywords: keywords)
            extras.orgHead = written == raw ? nil : String(decoding: Array(raw.joined(separator: [0x0A])), as: UTF8.self)
            // Not a change the user made: `modified` stays.
            item[slot: Item.Slot.title] = node.title
            item.extras = extras
            for tag in try tagObjects(head.tags) { item.add(tag, to: "tags") }
            item.tagList = Item.list(ofTags: head.tags)
        }
    }
}
