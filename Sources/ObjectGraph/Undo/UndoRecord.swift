/// One undo step: the stored state of every object it touched, before and after (nil: the object did not
/// exist). Undo restores the befores, redo the afters; both keep object IDs.
struct UndoRecord {
    struct State {
        var before: [Value]?
        var after: [Value]?
    }

    var name: String
    var states: [ObjectID: State] = [:]
    /// Objects in the order they were first touched, so applying a record is deterministic.
    var order: [ObjectID] = []

    /// Adds one saved unit of work: the first "before" of an object is kept, its "after" is the latest.
    mutating func add(_ id: ObjectID, before: [Value]?, after: [Value]?) {
        if var s = states[id] {
            s.after = after
            states[id] = s
        } else {
            states[id] = State(before: before, after: after)
            order.append(id)
        }
    }

    /// Drops objects whose state did not change over the whole step (inserted then deleted, edited back).
    mutating func compact() {
        order.removeAll { id in
            let s = states[id]!
            if s.before == nil && s.after == nil || s.before == s.after {
                states[id] = nil
                return true
            }
            return false
        }
    }

    var isEmpty: Bool { order.isEmpty }
}
