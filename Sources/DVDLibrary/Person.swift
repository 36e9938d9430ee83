import ObjectGraph

/// A person of the library, with typed properties over the entity's attributes (the articles' "model
/// interface": code reads `person.name`, not `person["name"]`).
final class Person: ManagedObject {
    var username: String {
        get { self["username"] }
        set { self["username"] = newValue }
    }
    var name: String {
        get { self["name"] }
        set { self["name"] = newValue }
    }
    /// Their DVDs, by title.
    var dvds: [DVD] { objects("dvds").compactMap { $0 as? DVD }.sorted { $0.title < $1.title } }
}
