import ObjectGraph

/// The model the tests of results controllers, polling and undo use, so that ObjectGraph is tested as a
/// library on a model of its own and not through the outline: lists holding tasks, each task with a title,
/// a position in its list (ties allowed, broken by ID) and a done flag, and a task count the store keeps
/// on each list.
///
/// Only ObjectGraph's public API is used here and in those tests (no `@testable import`).
enum TaskModel {
    static let model: Model = {
        do {
            return try Model(version: 1) {
                Entity("List") {
                    Attribute("name", .string, default: "")
                    Attribute.count("taskCount", of: "tasks")
                    Relationship.toMany("tasks", "Task", inverse: "list", deleteRule: .cascade)
                }
                Entity("Task") {
                    Attribute("title", .string, default: "")
                    Attribute("position", .integer64, default: 0)
                    Attribute("done", .bool, default: false)
                    Relationship.toOne("list", "List", inverse: "tasks")
                    CompoundIndex("list", "position")
                }
            }
        } catch {
            fatalError("the task model is invalid: \(error)")
        }
    }()

    /// The stored keys of each entity, as `rows(_:)` reads them.
    static let keys = ["List": ["name", "taskCount"], "Task": ["title", "position", "done", "list"]]

    /// The tasks of `list` in order.
    static func tasks(of list: ManagedObject, openOnly: Bool = false) -> FetchRequest {
        let inList: ObjectPredicate = Property("list") == list
        return FetchRequest("Task", where: openOnly ? inList && Property("done") == false : inList, sortedBy: [SortKey("position")])
    }

    /// Every list, by name.
    static let lists = FetchRequest("List", sortedBy: [SortKey("name")])

    /// Every stored row of every entity by ID, read without objects: the whole graph as the store holds it.
    static func rows(_ store: Store) throws -> [Int64: [Value]] {
        let reader = Context(store: store)
        var out: [Int64: [Value]] = [:]
        for (entity, keys) in keys {
            for row in try reader.fetchValues(FetchRequest(entity), keys: keys) { out[row.id.rowID] = row.values }
        }
        return out
    }
}

extension Context {
    func addList(_ name: String) throws -> ManagedObject {
        let list = try insert("List")
        list["name"] = .string(name)
        return list
    }

    @discardableResult
    func addTask(_ title: String, to list: ManagedObject, at position: Int64) throws -> ManagedObject {
        let task = try insert("Task")
        task["title"] = .string(title)
        task["position"] = .integer(position)
        task.setObject(list, for: "list")
        return task
    }
}
