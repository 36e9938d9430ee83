@testable import ObjectGraph

/// A model with one attribute of every type, every validation rule, and every delete rule.
enum Fixtures {
    static let allTypes = try! Model(version: 1) {
        Entity("Thing") {
            Attribute("s", .string, optional: true)
            Attribute("i", .integer64, optional: true)
            Attribute("d", .double, optional: true)
            Attribute("b", .bool, optional: true)
            Attribute("t", .date, optional: true)
            Attribute("x", .binary, optional: true)
            Attribute("u", .uuid, optional: true)
            Attribute("withDefault", default: "hello")
            Attribute("count", default: Int64(7))
        }
    }

    static let rules = try! Model(version: 1) {
        Entity("Rule") {
            Attribute("required", .string)
            Attribute("ranged", .integer64, optional: true, min: 1, max: 10)
            Attribute("fraction", .double, optional: true, min: 0, max: 1)
            Attribute("short", .string, optional: true, minLength: 2, maxLength: 4)
            Attribute("code", .string, optional: true, pattern: "[A-Z]{3}-[0-9]+")
            Attribute("blob", .binary, optional: true, maxLength: 3)
        }
    }

    /// Owner has one relationship per delete rule; Pet is on the other side of each.
    static let rulesGraph = try! Model(version: 1) {
        Entity("Owner", type: RecordingOwner.self) {
            Attribute("name", .string, default: "")
            Relationship.toMany("cascaded", "Pet", inverse: "cascadeOwner", deleteRule: .cascade)
            Relationship.toMany("nullified", "Pet", inverse: "nullifyOwner", deleteRule: .nullify)
            Relationship.toMany("denied", "Pet", inverse: "denyOwner", deleteRule: .deny)
            Relationship.toMany("ignored", "Pet", inverse: "noActionOwner", deleteRule: .noAction)
            Relationship.toOne("spouse", "Owner", inverse: "spouseOf")
            Relationship.toOne("spouseOf", "Owner", inverse: "spouse")
        }
        Entity("Pet", type: RecordingPet.self) {
            Attribute("name", .string, default: "")
            Relationship.toOne("cascadeOwner", "Owner", inverse: "cascaded")
            Relationship.toOne("nullifyOwner", "Owner", inverse: "nullified")
            Relationship.toOne("denyOwner", "Owner", inverse: "denied")
            Relationship.toOne("noActionOwner", "Owner", inverse: "ignored")
            Relationship.toMany("toys", "Toy", inverse: "pet", deleteRule: .cascade)
        }
        Entity("Toy", type: RecordingToy.self) {
            Attribute("name", .string, default: "")
            Relationship.toOne("pet", "Pet", inverse: "toys")
        }
    }
}
