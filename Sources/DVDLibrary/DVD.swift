import Foundation
import ObjectGraph

/// A DVD of the library, owned by one person.
final class DVD: ManagedObject {
    var title: String {
        get { self["title"] }
        set { self["title"] = newValue }
    }
    var purchaseDate: Date? {
        get { if case .date(let d) = self["purchaseDate"] { d } else { nil } }
        set { self["purchaseDate"] = newValue.map(Value.date) ?? .null }
    }
    var isWatched: Bool {
        get { self["watched"] }
        set { self["watched"] = newValue }
    }
    var owner: Person? {
        get { object("owner") as? Person }
        set { setObject(newValue, for: "owner") }
    }
}
