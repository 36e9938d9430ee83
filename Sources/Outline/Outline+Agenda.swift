import ObjectGraph

extension Outline {
    /// The agenda of `days` days from `today` (`2026-11-29`): reads only the items with a date before the
    /// last day, through the indexes of planned and due days.
    public func agenda(from today: String, days: Int) throws -> Agenda {
        guard let first = CaptureLine.Day(today) else { return Agenda(overdue: [], days: []) }
        let dayTexts = (0..<max(0, days)).map { first.adding(days: $0).text }
        // The day after the last, as text: every timestamp of an earlier day sorts before it.
        let end = first.adding(days: max(0, days)).text
        let keys = ["title", "done", "childCount", "state", "priority", "scheduled", "deadline", "parent"]
        let request = FetchRequest(
            Item.entityName, where: (Property("deadline") < end || Property("scheduled") < end) && Property("done") == false)
        // Each overdue task once, by the earlier of its days.
        var overdue: [ObjectID: (Agenda.Entry, String)] = [:]
        var byDay: [String: [(Agenda.Entry, String)]] = [:]
        var paths: [Int64: [String]] = [:]
        for (id, v) in try context.fetchValues(request, keys: keys) {
            func text(_ k: Int) -> String? { if case .string(let s) = v[k] { s } else { nil } }
            let count: Int = if case .integer(let c) = v[2] { Int(c) } else { 0 }
            let row = ItemRow(
                id: id, title: text(0) ?? "", isDone: false, childCount: count, state: text(3), priority: text(4), scheduled: text(5),
                deadline: text(6))
            let parent: Int64 = if case .integer(let p) = v[7] { p } else { 0 }
            if paths[parent] == nil { paths[parent] = try path(to: parent, entity: id.entity, known: &paths) }
            for (stamp, isDeadline) in [(row.scheduled, false), (row.deadline, true)] {
                guard let stamp, stamp.count >= 10 else { continue }
                let day = String(stamp.prefix(10))
                let time = stamp.count >= 16 && stamp.dropFirst(10).first == " " ? String(stamp.dropFirst(11).prefix(5)) : nil
                let entry = Agenda.Entry(row: row, isDeadline: isDeadline, time: time?.contains(":") == true ? time : nil, path: paths[parent]!)
                if day < today {
                    if let known = overdue[id], known.1 <= day { continue }
                    overdue[id] = (entry, day)
                } else if day < end {
                    byDay[day, default: []].append((entry, day))
                }
            }
        }
        func order(_ a: (Agenda.Entry, String), _ b: (Agenda.Entry, String)) -> Bool {
            (a.0.time ?? "", a.1, a.0.row.title, a.0.row.id.rowID) < (b.0.time ?? "", b.1, b.0.row.title, b.0.row.id.rowID)
        }
        return Agenda(
            overdue: overdue.values.sorted { ($0.1, $0.0.row.title, $0.0.row.id.rowID) < ($1.1, $1.0.row.title, $1.0.row.id.rowID) }.map(\.0),
            days: dayTexts.map { day in (day, (byDay[day] ?? []).sorted(by: order).map(\.0)) })
    }

    /// The titles from the top item's child down to the item `rowID` (empty for the top item), walking up
    /// only to the nearest item whose path is `known` already: every path is read once, however deep.
    private func path(to rowID: Int64, entity: Int, known: inout [Int64: [String]]) throws -> [String] {
        var chain: [(Int64, String)] = []
        var current: Int64? = rowID
        var base: [String] = []
        while let id = current {
            if let path = known[id] {
                base = path
                break
            }
            guard let item = try context.existingObject(for: ObjectID(entity: entity, rowID: id)) as? Item, !item.isInaccessible else { break }
            if item.isRoot { break }
            chain.append((id, item.title))
            current = item.parent?.objectID.rowID
        }
        var path = base
        for (id, title) in chain.reversed() {
            path.append(title)
            known[id] = path
        }
        return path
    }

    /// The agenda's items as a live list: tasks not done planned or due before `next` (a day), by their agenda
    /// day (the earlier of the two), then order; one range of the agenda days' index.
    public static func agendaRequest(before next: String) -> FetchRequest {
        var request = FetchRequest(Item.entityName, where: Property("agendaDay") < next && Property("done") == false)
        request.sortKeys = [SortKey("agendaDay"), SortKey("order")]
        return request
    }
}
