import Foundation
import ObjectGraph

/// Tasks: an item's state from the outline's workflow, its priority, and the time it was closed.
extension Outline {
    /// The outline's workflow, from its settings (the top item's note).
    public func workflow() throws -> Workflow {
        Workflow(settings: try root().note)
    }

    /// The workflow of the item `id` and what is under it: the `#+TODO:` lines of its note and its
    /// ancestors' up to the top item's (an Org file imported under an item left its settings in that item's
    /// note), as Org reads the lines of one file.
    public func workflow(at id: ObjectID) throws -> Workflow {
        var notes: [String] = []
        var item = try context.existingObject(for: id) as? Item
        var steps = 0
        while let i = item, !i.isInaccessible, steps < 100_000 {
            if let note = i.note, note.contains("#+") { notes.append(note) }
            item = i.parent
            steps += 1
        }
        return notes.isEmpty ? .standard : Workflow(settings: notes)
    }

    /// Sets the state of item `id` (nil: a plain item again, not done). Done follows the state; a task that
    /// becomes done is closed now, and one that is no longer done is open again.
    public func setState(_ id: ObjectID, to state: String?) throws {
        let item = try resolve(id)
        let workflow = try self.workflow(at: id)
        item.state = state
        close(item, done: state.map(workflow.isDone) ?? false, task: true)
    }

    /// Adds the item a quick-capture line describes (see `CaptureLine`: `TODO Call Bob !A due:fri`) at the end
    /// of `parent`'s sub-items, its days read against `today`; returns its ID.
    @discardableResult
    public func append(captured line: String, to parent: ObjectID, today: String) throws -> ObjectID {
        let captured = CaptureLine(line, today: today, workflow: try self.workflow(at: parent))
        let id = try append(captured.title, to: parent)
        if let extras = captured.extras { try setTask(id, extras) }
        return id
    }

    /// Gives item `id` what a capture line took (state, priority, dates, tags); a done state marks it done and
    /// closes it now.
    public func setTask(_ id: ObjectID, _ extras: OutlineNode.Extras) throws {
        let item = try resolve(id)
        item.extras = extras
        if !extras.tags.isEmpty { try setTags(id, extras.tags) }
        if let state = extras.state, try workflow(at: id).isDone(state) { close(item, done: true, task: true) }
    }

    /// Cycles the state of item `id` through the workflow (none, each state, none); returns the new state.
    @discardableResult
    public func cycleState(_ id: ObjectID) throws -> String? {
        let next = try workflow(at: id).next(after: try resolve(id).state)
        try setState(id, to: next)
        return next
    }

    /// Cycles the priority of item `id`: none, A, B, C, none; returns the new one.
    @discardableResult
    public func cyclePriority(_ id: ObjectID) throws -> String? {
        let item = try resolve(id)
        let order = ["A", "B", "C"]
        let next: String?
        if let current = item.priority {
            // A priority other than A–C (from a file) goes to none, as C does.
            next = order.firstIndex(of: current).flatMap { $0 + 1 < order.count ? order[$0 + 1] : nil }
        } else {
            next = order[0]
        }
        item.priority = next
        return next
    }

    /// Marks a task done or not done: its state moves to the workflow's first done (or not-done) state when
    /// it is not one already, and its closing time is set or cleared; a plain item's done mark alone.
    func setTaskDone(_ item: Item, _ done: Bool) throws {
        guard let state = item.state else {
            item.isDone = done
            return
        }
        let workflow = try self.workflow(at: item.objectID)
        if workflow.isDone(state) != done {
            item.state = done ? workflow.done.first : workflow.todo.first ?? state
        }
        close(item, done: done, task: true)
    }

    private func close(_ item: Item, done: Bool, task: Bool) {
        let was = item.isDone
        item.isDone = done
        guard task, done != was else { return }
        var extras = item.extras ?? OutlineNode.Extras()
        extras.closed = done ? Self.minute(Date()) : nil
        item.extras = extras
    }

    /// The timestamp as the outline keeps it for `text` (`2026-12-01`, `2026-12-01 9:00 +1w`, with or
    /// without Org's brackets and day name), or nil when it is not one.
    public static func timestamp(_ text: String) -> String? {
        var inside = Substring(text).trimmingCharacters(in: .whitespaces)[...]
        if let first = inside.first, let last = inside.last, (first == "<" && last == ">") || (first == "[" && last == "]") {
            inside = inside.dropFirst().dropLast()
        }
        return OrgTimestamp.kept(Array(inside.utf8))
    }

    /// `2026-11-29 14:05` in `timeZone`, or in this machine's local time when nil: a timestamp as the outline
    /// keeps them (see `OrgTimestamp`).
    public static func minute(_ date: Date, in timeZone: TimeZone? = nil) -> String {
        // The wall clock's seconds, then its day as `CaptureLine.Day` writes it: every frame shows today's
        // date, and a Calendar with `String(format:)` was a tenth of a frame. A time read from a damaged
        // store may be no number or beyond any calendar (`Int(_:)` would trap): clamped to ±100,000 years.
        let limit = 3_155_760_000_000.0
        let seconds1970 = date.timeIntervalSince1970
        let instant = Int(seconds1970.isNaN ? 0 : min(max(seconds1970, -limit), limit).rounded(.down))
        let seconds = instant + (timeZone.map { $0.secondsFromGMT(for: date) } ?? Self.localOffset(at: instant))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let inDay = seconds - days * 86_400
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return CaptureLine.Day(days: days).text + " " + two(inDay / 3_600) + ":" + two(inDay % 3_600 / 60)
    }

    /// `2026-11-29`: the day `date` (now) falls on in `timeZone`, or in this machine's local time when nil.
    public static func today(_ date: Date = Date(), in timeZone: TimeZone? = nil) -> String {
        String(minute(date, in: timeZone).prefix(10))
    }

    /// Seconds east of UTC on this machine's wall clock at `instant` (seconds since 1970), as the C library
    /// reads `TZ` and `/etc/localtime`.
    public static func localOffset(at instant: Int) -> Int {
        // Not `TimeZone.current`: its first offset loads ICU's zone tables, milliseconds of every command
        // that reads today's date and of the outliner's first frame, which shows it.
        var time = time_t(instant)
        var local = tm()
        guard localtime_r(&time, &local) != nil else { return 0 }
        return Int(local.tm_gmtoff)
    }

    /// The day `days` after `day` (`2026-11-29` plus 7 is `2026-12-06`); nil when `day` is not one.
    public static func day(_ day: String, plus days: Int) -> String? {
        CaptureLine.Day(day)?.adding(days: days).text
    }

    /// For each of `parents` with tasks among its sub-items, how many of those are done and how many there
    /// are (Org's `[3/5]`): one read of the tasks below them all.
    public func taskProgress(of parents: [ObjectID]) throws -> [ObjectID: (done: Int, total: Int)] {
        guard let entity = parents.first?.entity else { return [:] }
        var out: [ObjectID: (done: Int, total: Int)] = [:]
        let request = FetchRequest(Item.entityName, where: Property("parent").oneOf(parents.map(\.rowID)) && !Property("state").isNil)
        for (_, values) in try context.fetchValues(request, keys: ["parent", "done"]) {
            guard case .integer(let parent) = values[0] else { continue }
            let id = ObjectID(entity: entity, rowID: parent)
            var p = out[id] ?? (0, 0)
            p.total += 1
            if values[1] == .bool(true) { p.done += 1 }
            out[id] = p
        }
        return out
    }
}
