import ObjectGraph

/// A color of the Colors demo: three components between 0 and 1, a name, and its hex value, derived.
final class Color: ManagedObject {
    var name: String {
        get { self["name"] }
        set { self["name"] = newValue }
    }
    var red: Double {
        get { self["red"] }
        set { self["red"] = newValue }
    }
    var green: Double {
        get { self["green"] }
        set { self["green"] = newValue }
    }
    var blue: Double {
        get { self["blue"] }
        set { self["blue"] = newValue }
    }
    /// The transient attribute: never stored, computed from the components on each read.
    var hex: String { self["hex"] }
}
