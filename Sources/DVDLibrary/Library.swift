import Foundation
import ObjectGraph
import Synchronization

/// What the example program does with a library file, each command one unit of work, its output as lines.
/// Every failure a user can cause (an unknown person, a value out of range, a name taken) is a thrown error
/// with a sentence to print, and leaves the file as it was.
struct Library {
    let store: Store
    let context: Context
    /// Where `changes` left off, kept in the file itself.
    static let tokenKey = "dvd-library.changes"

    init(path: String) throws {
        store = try Store(path: path, model: try LibraryModel.make())
        context = Context(store: store)
        context.undoHistory.origin = "dvd-library"
        context.transactionAuthor = "dvd-library"
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func person(_ username: String) throws -> Person {
        let found = try context.fetch(FetchRequest("Person", where: Property("username") == username)).first
        guard let person = found as? Person else { throw Failure(description: "there is no person “\(username)”") }
        return person
    }

    func addPerson(username: String, name: String) throws -> [String] {
        let person = try context.insert(Person.self, entity: "Person")
        person.username = username
        person.name = name
        try context.save(actionName: "Add \(username)")
        return ["added \(username) (\(name))"]
    }

    func addDVD(owner username: String, title: String, bought: Date?) throws -> [String] {
        let owner = try person(username)
        let dvd = try context.insert(DVD.self, entity: "DVD")
        dvd.title = title
        dvd.purchaseDate = bought
        dvd.owner = owner
        try context.save(actionName: "Add “\(title)”")
        return ["\(owner.username) has \(owner.dvds.count) DVDs"]
    }

    /// Every person with their DVDs, by username then title.
    func list() throws -> [String] {
        var lines: [String] = []
        let day = DateFormatter()
        day.dateFormat = "yyyy-MM-dd"
        day.timeZone = TimeZone(identifier: "UTC")
        for case let person as Person in try context.fetch(FetchRequest("Person", sortedBy: [SortKey("username")])) {
            lines.append("\(person.username) (\(person.name)): \(person.dvds.count) DVDs")
            for dvd in person.dvds.prefix(20) {
                let date = dvd.purchaseDate.map { " bought " + day.string(from: $0) } ?? ""
                lines.append("  \(dvd.isWatched ? "✓" : "·") \(dvd.title)\(date)")
            }
            if person.dvds.count > 20 { lines.append("  … and \(person.dvds.count - 20) more") }
        }
        return lines.isEmpty ? ["the library is empty"] : lines
    }

    /// Every DVD of `username` marked watched in one statement: no objects are made, and a results
    /// controller showing them still gets the change as a batch.
    func markAllWatched(_ username: String) throws -> [String] {
        let owner = try person(username)
        let unwatched = FetchRequest("DVD", where: Property("owner") == owner && Property("watched") == false)
        let changed = try context.batchUpdate(unwatched, set: ["watched": true])
        return ["\(changed.count) DVDs of \(username) marked watched"]
    }

    /// `count` DVDs for `username` saved by a background context in slices, while this thread polls and keeps
    /// a results controller of that person's DVDs up to date, as a screen would between frames. The context is
    /// paced: each slice waits until this thread has taken the one before in, so every poll brings one slice
    /// (one snapshot) and no frame has the whole import to take in.
    func importDVDs(owner username: String, count: Int, slice: Int = 1_000) throws -> [String] {
        let owner = try person(username)
        let request = FetchRequest("DVD", where: Property("owner") == owner, sortedBy: [SortKey("title")])
        let shown = ResultsController(context: context, request: request)
        var snapshots: [ResultsSnapshot] = []
        shown.onSnapshot = { snapshots.append($0) }
        try shown.performFetch()
        let before = shown.count
        let ownerID = owner.objectID
        let background = try BackgroundContext(sharingFileOf: store, paced: true)
        let made = Atomic<Int>(0), finished = Atomic<Bool>(false), failure = Mutex<(any Error)?>(nil)
        background.perform(
            { bg in
                bg.transactionAuthor = "import"
                let owner = bg.object(for: ownerID)
                var n = 0
                while n < count {
                    for _ in 0..<min(slice, count - n) {
                        let dvd = try bg.insert("DVD")
                        dvd["title"] = .string(String(format: "Imported %07d", n))
                        dvd.setObject(owner, for: "owner")
                        n += 1
                    }
                    try bg.saveWithoutUndo()
                }
                made.store(n, ordering: .relaxed)
                finished.store(true, ordering: .releasing)
            },
            failed: { error in
                failure.withLock { $0 = error }
                finished.store(true, ordering: .releasing)
            })
        // The screen's loop: take in what was saved, draw, wait for the next frame.
        while !finished.load(ordering: .acquiring) {
            try store.poll()
            usleep(1_000)
        }
        try store.poll()
        if let error = failure.withLock({ $0 }) { throw error }
        let slices = snapshots.filter { !$0.isReload }.count
        return [
            "imported \(made.load(ordering: .relaxed)) DVDs for \(username) in the background; the list shows \(shown.count) "
                + "(was \(before)), in \(slices) snapshot(s), the last of \(snapshots.last?.items.count ?? before) DVDs"
        ]
    }

    /// Every watched DVD of `username` deleted in one statement: no objects are made, the owner's DVDs
    /// count is kept, and results controllers get the change as a batch. Not an undo step.
    func forgetWatched(_ username: String) throws -> [String] {
        let owner = try person(username)
        let gone = try context.batchDelete(FetchRequest("DVD", where: Property("owner") == owner && Property("watched") == true))
        return ["\(gone.count) watched DVDs of \(username) removed"]
    }

    /// What was committed since the last `changes`, by anyone (this program, the background import, another
    /// process), with the author each context named; the place is kept in the file.
    func changes() throws -> [String] {
        let kept = try store.appValue(Self.tokenKey).flatMap { Int64($0) }.map(ChangeToken.init)
        guard let token = kept else {
            let now = try store.currentChangeToken()
            try store.setAppValue(Self.tokenKey, String(now.value))
            return ["watching changes from now on"]
        }
        let history = try store.changeHistory(after: token)
        var lines = history.commits.map { commit in
            let c = commit.changes
            return
                "commit \(commit.token.value) by \(commit.author ?? "someone"): \(c.insertedCount) inserted, \(c.updatedCount) updated, \(c.deletedCount) deleted"
        }
        if !history.isComplete { lines.insert("(older commits were pruned from the log)", at: 0) }
        try store.setAppValue(Self.tokenKey, String(history.token.value))
        return lines.isEmpty ? ["no changes"] : lines
    }

    func addColor(name: String, red: Double, green: Double, blue: Double) throws -> [String] {
        let color = try context.insert(Color.self, entity: "Color")
        color.name = name
        (color.red, color.green, color.blue) = (red, green, blue)
        try context.save(actionName: "Add \(name)")
        return ["\(color.name) \(color.hex)"]
    }

    /// The color called `name` (the name is indexed: one lookup).
    func color(_ name: String) throws -> Color {
        var request = FetchRequest("Color", where: Property("name") == name)
        request.limit = 1
        guard let color = try context.fetch(request).first as? Color else { throw Failure(description: "there is no color “\(name)”") }
        return color
    }

    /// The Colors demo's detail view of one color: its name and hex value, then each component as a slider
    /// (a bar of 20 cells, a cell for each twentieth) with its value.
    func detail(of name: String) throws -> [String] {
        let c = try color(name)
        let sliders = [("red", c.red), ("green", c.green), ("blue", c.blue)].map { component, value in
            // Clamped: a file written by another program may hold a component outside 0…1.
            let filled = min(20, max(0, Int((value * 20).rounded())))
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: 20 - filled)
            return component.padding(toLength: 6, withPad: " ", startingAt: 0) + bar + " " + String(format: "%.2f", value)
        }
        return ["\(c.name)  \(c.hex)"] + sliders
    }

    /// The detail view's edit: one component set, saved as one undo step, then the view again. A value out of
    /// the attribute's range is refused at the save (the model's `min`/`max`), and the file keeps the old one.
    func setComponent(of name: String, _ component: String, to value: Double) throws -> [String] {
        let c = try color(name)
        switch component {
        case "red": c.red = value
        case "green": c.green = value
        case "blue": c.blue = value
        default: throw Failure(description: "a color has red, green and blue, not “\(component)”")
        }
        do {
            try context.save(actionName: "Set \(component) of \(name)")
        } catch {
            context.rollback()
            throw error
        }
        return try detail(of: name)
    }

    /// The Colors demo's master list: each color's name, components and derived hex value.
    func colors() throws -> [String] {
        let colors = try context.fetch(FetchRequest("Color", sortedBy: [SortKey("name")])).compactMap { $0 as? Color }
        guard !colors.isEmpty else { return ["no colors"] }
        return colors.map { c in
            let parts = [("red", c.red), ("green", c.green), ("blue", c.blue)].map { "\($0) " + String(format: "%.2f", $1) }
            return ([c.name] + parts + [c.hex]).joined(separator: "  ")
        }
    }

    func undo() throws -> [String] {
        guard let name = try context.undo() else { return ["nothing to undo"] }
        return ["undid \(name)"]
    }
}
