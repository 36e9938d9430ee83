import ObjectGraph

/// The outliner's data model.
public enum OutlineModel {
    /// Version 1: `Item` with title, note, done, order key, child count and the parent/children tree.
    public static let model: Model = {
        do {
            return try Model(version: 1) {
                Entity("Item", type: Item.self) {
                    Attribute("title", .string, default: "")
                    Attribute("note", .string, optional: true)
                    Attribute("done", .bool, default: false)
                    Attribute("order", .string, default: "a0")
                    Attribute("childCount", .integer64, default: 0, min: 0)
                    // 1 on the root, NULL elsewhere: the unique index makes a second root impossible,
                    // even when two processes create one at the same time.
                    Attribute("rootMarker", .integer64, optional: true, unique: true)
                    Relationship.toOne("parent", "Item", inverse: "children")
                    Relationship.toMany("children", "Item", inverse: "parent", deleteRule: .cascade)
                    CompoundIndex("parent", "order")
                }
            }
        } catch {
            fatalError("the outline model is invalid: \(error)")
        }
    }()
}
