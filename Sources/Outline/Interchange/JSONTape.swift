/// A JSON document as one flat list of its values in document order: a container is followed by its
/// contents, and knows where they end. No value holds another, so a document of any depth is made, read
/// and freed without recursion (a tree of nested enums is freed a frame per level).
struct JSONTape {
    enum Kind {
        case object, array, string
        /// A number, `true`, `false` or `null`, as written.
        case scalar
    }

    struct Value {
        let kind: Kind
        /// Its member name, when it is a member of an object.
        let key: String?
        /// A string's text or a scalar as written; empty for a container.
        let text: String
        let line: Int
        let column: Int
        /// The index after the value and its contents: its next sibling's.
        var end: Int
    }

    var values: [Value] = []

    subscript(_ k: Int) -> Value { values[k] }

    /// The indices of a container's elements (or members).
    func contents(of k: Int) -> some Sequence<Int> {
        sequence(first: k + 1) { values[$0].end }.lazy.prefix { $0 < values[k].end }
    }
}
