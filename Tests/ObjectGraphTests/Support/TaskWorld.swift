import ObjectGraph
import TestSupport

/// Two saved lists of the task model: Home with a, b, c, d, e at positions 10 to 50, and Work with x, y at
/// 10 and 20; Home sorts before Work.
struct TaskWorld {
    let context: Context
    let home: ManagedObject
    let work: ManagedObject
    /// Home's tasks, a to e.
    let h: [ManagedObject]
    /// Work's tasks, x and y.
    let w: [ManagedObject]

    var store: Store { context.store }

    /// The world in a store of its own in memory, or in `store` (a file, for tests of other connections).
    init(store: Store? = nil) throws {
        let c = Context(store: try store ?? Store(inMemoryWith: TaskModel.model))
        let home = try c.addList("Home"), work = try c.addList("Work")
        h = try ["a", "b", "c", "d", "e"].enumerated().map { k, title in try c.addTask(title, to: home, at: Int64(10 * (k + 1))) }
        w = try ["x", "y"].enumerated().map { k, title in try c.addTask(title, to: work, at: Int64(10 * (k + 1))) }
        try c.saveWithoutUndo()
        (context, self.home, self.work) = (c, home, work)
    }

    /// The titles of `list`'s tasks in order, from a fresh fetch.
    func titles(_ list: ManagedObject) throws -> [String] {
        try context.fetch(TaskModel.tasks(of: list)).map { $0["title"] as String }
    }
}

extension TaskWorld {
    /// The world in a file, and a context on a second connection to that file (shares no memory with the
    /// world's, as another process would). The folder is returned so that it outlives both.
    static func withSecondConnection(_ folder: String) throws -> (TemporaryDirectory, TaskWorld, Context) {
        let dir = TemporaryDirectory(folder)
        let t = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        let theirs = Context(store: try Store(path: dir.path(), model: TaskModel.model))
        return (dir, t, theirs)
    }
}
