/// An object's inverse-side relationship states by slot. An object has few such relationships, so a
/// short list searched in order is cheaper than hashing the slot on every relationship change.
struct RelationStates: ExpressibleByDictionaryLiteral {
    private var entries: [(slot: Int, state: RelationState)] = []

    /// No states. Cheaper than `[:]`, which builds its empty list through the variadic literal: every new
    /// object starts with one.
    init() {}

    init(dictionaryLiteral elements: (Int, RelationState)...) {
        entries = elements.map { (slot: $0.0, state: $0.1) }
    }

    var isEmpty: Bool { entries.isEmpty }

    /// The slots that have a state.
    var keys: [Int] { entries.map(\.slot) }

    subscript(slot: Int) -> RelationState? {
        get { entries.first { $0.slot == slot }?.state }
        set {
            if let i = entries.firstIndex(where: { $0.slot == slot }) {
                if let newValue { entries[i].state = newValue } else { entries.remove(at: i) }
            } else if let newValue {
                entries.append((slot: slot, state: newValue))
            }
        }
    }

    subscript(slot: Int, default value: @autoclosure () -> RelationState) -> RelationState {
        get { self[slot] ?? value() }
        _modify {
            let i: Int
            if let k = entries.firstIndex(where: { $0.slot == slot }) {
                i = k
            } else {
                entries.append((slot: slot, state: value()))
                i = entries.count - 1
            }
            yield &entries[i].state
        }
    }
}
