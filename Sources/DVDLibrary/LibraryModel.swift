import ObjectGraph

/// The model of the Core Data articles this project grew from, declared with ObjectGraph: people and the DVDs
/// they own (one-to-many, a DVD needs its owner, deleting a person deletes their DVDs), and the Colors demo's
/// entity (typed attributes with defaults and bounds, an indexed name, a transient hex value derived on read).
enum LibraryModel {
    /// Builds the model; a mistake in the declaration is a `ModelError`.
    static func make() throws -> Model {
        try Model(version: 1) {
            Entity("Person", type: Person.self) {
                Attribute("username", .string, minLength: 1, unique: true)
                Attribute("name", .string, default: "")
                Relationship.toMany("dvds", "DVD", inverse: "owner", deleteRule: .cascade)
            }
            Entity("DVD", type: DVD.self) {
                Attribute("title", .string, minLength: 1)
                Attribute("purchaseDate", .date, optional: true)
                Attribute("watched", .bool, default: false)
                Relationship.toOne("owner", "Person", inverse: "dvds", optional: false)
                CompoundIndex("owner", "title")
            }
            Entity("Color", type: Color.self) {
                Attribute("red", .double, default: 0, min: 0, max: 1)
                Attribute("green", .double, default: 0, min: 0, max: 1)
                Attribute("blue", .double, default: 0, min: 0, max: 1)
                Attribute("name", default: "Unnamed Color", indexed: true)
                Attribute.transient("hex", .string) { color in
                    let parts = ["red", "green", "blue"].map { key -> String in
                        let s = String(Int(((color[key] as Double) * 255).rounded()), radix: 16, uppercase: true)
                        return s.count == 1 ? "0" + s : s
                    }
                    return .string("#" + parts.joined())
                }
            }
        }
    }
}
