import ObjectGraph

extension Outline {
    /// Verifies the outline as stored, without changing it: the store's own checks (SQLite's integrity,
    /// references, the ID allocator, every item's stored sub-item count), one top item, every item
    /// reachable from it (no orphans, no cycles), and valid order keys, distinct within each level.
    /// Returns one line per problem; none when the outline is intact.
    ///
    /// ```swift
    /// let problems = try outline.check()   // ["#12 “Milk” stores 3 sub-items but has 2"]
    /// ```
    public func check() throws -> [String] {
        let survey = try Survey(self)
        return survey.problems
            + (try tagDisagreements()).map { d in
                let item = context.object(for: ObjectID(entity: Item.entityIndex, rowID: d.item)) as! Item
                let listed = d.listed.isEmpty ? "no tags" : d.listed.map { "#" + $0 }.joined(separator: " ")
                let linked = d.linked.isEmpty ? "none" : d.linked.sorted().map { "#" + $0 }.joined(separator: " ")
                return "#\(d.item) “\(item.title)” lists \(listed) but is linked to \(linked)"
            }
    }

    /// The tree's part of ``check()`` alone (one top item, every item reachable, valid keys distinct within
    /// each level), without the store's own checks: cheap enough to run after every step of a simulation.
    public func checkTree() throws -> [String] {
        try Survey(self, store: false).problems
    }

    /// Repairs what can be derived, in one transaction, as one undoable action: stored counts are counted
    /// again, the ID allocator is set above every ID, items not reachable from the top (orphans, cycles)
    /// are moved under a top-level item “Recovered”, levels with repeated or invalid order keys get
    /// new keys in their current order, and an item's links to tags follow its list of them. Returns what it did, one sentence per kind of repair. What cannot
    /// be derived (SQLite's own integrity) is left for ``check()`` to report.
    public func repair() throws -> [String] {
        let done = try perform("Repair the outline") { () throws -> [String] in
            // Counts first: the moves below then change them from the right values.
            var done = try context.store.repairDerived()
            let survey = try Survey(self)
            if survey.roots.isEmpty { cachedRoot = nil }  // its row is gone, whatever this context last read
            let root = try self.root()
            if survey.roots.isEmpty { done.append("made a new top item") }
            if root.parent != nil {
                root.setObject(nil, for: "parent")
                done.append("detached the top item from #\(survey.rootParent ?? 0)")
            }
            if !survey.detached.isEmpty {
                let recovered = try recoveredItem(under: root)
                var last = try lastKey(in: recovered)
                for id in survey.detached {
                    let item = try existing(id)
                    let key = OrderKey.between(last, nil)
                    item.setObject(recovered, for: "parent")
                    item.order = key
                    last = key
                }
                let n = survey.detached.count, below = survey.unreachable.count - n
                done.append(
                    "moved \(n) item\(n == 1 ? "" : "s") not reachable from the top"
                        + (below > 0 ? " (with \(below) sub-item\(below == 1 ? "" : "s"))" : "") + " under “Recovered”")
            }
            var rekeyed = 0
            for parent in survey.badLevels {
                let items = try children(of: try existing(parent))
                for (item, key) in zip(items, OrderKey.keys(after: nil, count: items.count)) where item.order != key {
                    item.order = key
                    rekeyed += 1
                }
            }
            let tagged = try tagDisagreements()
            for d in tagged { try relinkTags(ObjectID(entity: Item.entityIndex, rowID: d.item)) }
            if !tagged.isEmpty {
                done.append(
                    "linked \(tagged.count) item\(tagged.count == 1 ? "" : "s") to the tags \(tagged.count == 1 ? "its list names" : "their lists name")"
                )
            }
            if rekeyed > 0 {
                done.append(
                    "gave \(rekeyed) item\(rekeyed == 1 ? "" : "s") in \(survey.badLevels.count) level\(survey.badLevels.count == 1 ? "" : "s") new order keys"
                )
            }
            return done
        }
        // Counts changed in the store, not through objects: read them again.
        context.refreshAll()
        return done
    }

    private func existing(_ rowID: Int64) throws -> Item {
        guard let item = try context.existingObject(for: ObjectID(entity: Item.Slot.entity.index, rowID: rowID)) as? Item else {
            throw PathError(message: "item #\(rowID) is gone")
        }
        return item
    }

    /// The top-level item “Recovered”, made at the end of the top level if there is none.
    private func recoveredItem(under root: Item) throws -> Item {
        if let found = try children(of: root).first(where: { $0.title == "Recovered" }) { return found }
        return try append("Recovered", to: root)
    }
}

/// What `check` and `repair` read: every item's parent and key in one pass sorted by (parent, order), and
/// the items reachable from the top as the store follows the parent keys.
private struct Survey {
    var problems: [String] = []
    var roots: [Int64] = []
    var rootParent: Int64?
    /// The first item of each unreachable stretch (no parent, a missing parent, or a cycle's smallest ID).
    var detached: [Int64] = []
    var unreachable: Set<Int64> = []
    /// Levels (by parent) with a repeated or an invalid order key.
    var badLevels: [Int64] = []

    init(_ outline: Outline, store: Bool = true) throws {
        let context = outline.context
        let entity = Item.Slot.entity
        func title(_ id: Int64) -> String {
            let item = context.object(for: ObjectID(entity: entity.index, rowID: id)) as! Item
            return "#\(id) “" + item.title + "”"
        }
        for p in try store ? context.store.check() : [] {
            if p.kind == .danglingReference, p.object?.entity == entity.index { continue }  // said below, with what hangs on it
            if p.kind == .count, let id = p.object?.rowID {
                let item = context.object(for: ObjectID(entity: entity.index, rowID: id)) as! Item
                let actual = try context.count(FetchRequest(Item.entityName, where: Property("parent") == item))
                problems.append("\(title(id)) stores \(item.childCount) sub-item\(item.childCount == 1 ? "" : "s") but has \(actual)")
                continue
            }
            problems.append(p.message)
        }

        roots = try context.fetch(FetchRequest(Item.entityName, where: Property("rootMarker") == Int64(1))).rowIDs
        if roots.isEmpty { problems.append("there is no top item") }
        let rows = try context.fetchValues(FetchRequest(Item.entityName, sortedBy: [SortKey("parent"), SortKey("order")]), keys: ["parent", "order"])
        var parentOf: [Int64: Int64] = [:]
        parentOf.reserveCapacity(rows.count)
        var previous: (parent: Value, order: Value, id: Int64)?
        var repeats: [Int64: Set<String>] = [:]
        for (id, v) in rows {
            if case .integer(let p) = v[0] { parentOf[id.rowID] = p }
            let key: String = if case .string(let k) = v[1] { k } else { "" }
            if let prev = previous, prev.parent == v[0], prev.order == v[1], case .integer(let p) = v[0] {
                repeats[p, default: []].insert(key)
            }
            if !OrderKey.isValid(key) {
                problems.append("\(title(id.rowID)) has an invalid order key “\(key)”")
                if case .integer(let p) = v[0], !badLevels.contains(p) { badLevels.append(p) }
            }
            previous = (v[0], v[1], id.rowID)
        }
        for (p, keys) in repeats.sorted(by: { $0.key < $1.key }) {
            problems.append("\(title(p)) has sub-items that share an order key (\(keys.sorted().joined(separator: ", ")))")
            if !badLevels.contains(p) { badLevels.append(p) }
        }
        guard let root = roots.first else {
            unreachable = Set(rows.map(\.id.rowID))
            findDetached(parentOf, title)
            return
        }
        rootParent = parentOf[root]
        if let p = rootParent { problems.append("the top item has a parent, #\(p)") }
        let top = context.object(for: ObjectID(entity: entity.index, rowID: root))
        var reachable = Set(try context.descendantIDs(of: top, through: "children"))
        reachable.insert(root)
        for (id, _) in rows where !reachable.contains(id.rowID) { unreachable.insert(id.rowID) }
        findDetached(parentOf, title)
    }

    /// Splits the unreachable items into stretches, each with its first item: one without a parent, one
    /// whose parent does not exist, or the smallest ID of a cycle. Reports one line per stretch.
    private mutating func findDetached(_ parentOf: [Int64: Int64], _ title: (Int64) -> String) {
        var state: [Int64: UInt8] = [:]  // 1: on the current walk, 2: done
        var children: [Int64: [Int64]] = [:]
        for id in unreachable { if let p = parentOf[id], unreachable.contains(p) { children[p, default: []].append(id) } }
        func size(below top: Int64) -> Int {
            var n = 0
            var stack = children[top] ?? []
            var seen: Set<Int64> = [top]
            while let x = stack.popLast() {
                guard seen.insert(x).inserted else { continue }
                n += 1
                stack += children[x] ?? []
            }
            return n
        }
        for start in unreachable.sorted() where state[start] == nil {
            var walk: [Int64] = []
            var x = start
            // Up the parent keys until the end of the chain, an item already placed, or a loop back into
            // this walk (a cycle).
            while true {
                if let s = state[x] {
                    if s == 1, let loop = walk.firstIndex(of: x) {
                        let cycle = Array(walk[loop...])
                        let first = cycle.min()!
                        detached.append(first)
                        problems.append(
                            "\(title(first)) is in a cycle of \(cycle.count) item\(cycle.count == 1 ? "" : "s") "
                                + "(\(cycle.map { "#\($0)" }.joined(separator: " → "))), not reachable from the top")
                    }
                    break
                }
                state[x] = 1
                walk.append(x)
                guard let p = parentOf[x], unreachable.contains(p) else {
                    detached.append(x)
                    let why = parentOf[x].map { "its parent #\($0) does not exist" } ?? "it has no parent"
                    let below = size(below: x)
                    problems.append(
                        "\(title(x))\(below > 0 ? " and \(below) sub-item\(below == 1 ? "" : "s")" : "") cannot be reached from the top: \(why)")
                    break
                }
                x = p
            }
            for w in walk { state[w] = 2 }
        }
    }
}
