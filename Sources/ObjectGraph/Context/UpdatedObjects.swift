/// The objects a change set updated, each with the properties that changed: read like a dictionary from
/// object to mask. A batch update's rows share one mask and are kept as one sorted array of row IDs (a run),
/// so 100,000 updated rows cost an array rather than 100,000 hashed entries.
///
/// ```swift
/// for (id, mask) in changes[taskEntity.index].updated { print(id, mask.names(in: taskEntity)) }
/// if let mask = changes[taskEntity.index].updated[task.objectID] { print(mask.names(in: taskEntity)) }
/// ```
public struct UpdatedObjects: Sequence, Sendable, Equatable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// Objects of one entity that share one mask, row IDs ascending and distinct.
    struct Run: Sendable {
        var entity: Int
        var rowIDs: [Int64]
        var mask: PropertyMask

        func contains(_ id: ObjectID) -> Bool {
            guard id.entity == entity else { return false }
            var low = 0, high = rowIDs.count
            while low < high {
                let mid = (low + high) / 2
                if rowIDs[mid] < id.rowID { low = mid + 1 } else { high = mid }
            }
            return low < rowIDs.count && rowIDs[low] == id.rowID
        }
    }

    /// Objects with a mask of their own. No object is both here and in a run, nor in two runs.
    private(set) var single: [ObjectID: PropertyMask]
    private(set) var runs: [Run]

    /// No object updated.
    public init() {
        single = [:]
        runs = []
    }

    /// The objects of `masks`, each with its mask.
    public init(_ masks: [ObjectID: PropertyMask]) {
        single = masks
        runs = []
    }

    /// The objects listed, each with its mask.
    public init(dictionaryLiteral elements: (ObjectID, PropertyMask)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { $0.union($1) }))
    }

    /// Rows of `entity` updated alike (a batch update); `rowIDs` in any order, each once.
    init(entity: Int, rowIDs: [Int64], mask: PropertyMask) {
        single = [:]
        var ids = rowIDs
        if !ids.isEmpty && !zip(ids, ids.dropFirst()).allSatisfy({ $0 < $1 }) { ids.sort() }
        runs = ids.isEmpty ? [] : [Run(entity: entity, rowIDs: ids, mask: mask)]
    }

    /// The properties that changed of `id`, or nil when it was not updated.
    public subscript(id: ObjectID) -> PropertyMask? {
        if let mask = single[id] { return mask }
        for run in runs where run.contains(id) { return run.mask }
        return nil
    }

    /// How many objects were updated.
    public var count: Int { runs.reduce(single.count) { $0 + $1.rowIDs.count } }

    /// True when no object was updated.
    public var isEmpty: Bool { single.isEmpty && runs.isEmpty }

    /// The updated objects (in no particular order).
    public var keys: LazyMapSequence<UpdatedObjects, ObjectID> { lazy.map(\.key) }

    /// Each updated object with its mask.
    public struct Iterator: IteratorProtocol {
        var singles: Dictionary<ObjectID, PropertyMask>.Iterator
        let runs: [Run]
        var run = -1
        // The current run's parts, held apart so that each step only indexes an array.
        var entity = 0, rowIDs: [Int64] = [], mask = PropertyMask(), index = 0

        /// The next object and its mask; nil after the last.
        public mutating func next() -> (key: ObjectID, value: PropertyMask)? {
            if let (id, mask) = singles.next() { return (id, mask) }
            while index == rowIDs.count {
                run += 1
                guard run < runs.count else { return nil }
                (entity, rowIDs, mask, index) = (runs[run].entity, runs[run].rowIDs, runs[run].mask, 0)
            }
            index += 1
            return (ObjectID(entity: entity, rowID: rowIDs[index - 1]), mask)
        }
    }

    /// An iterator over every updated object with its mask.
    public func makeIterator() -> Iterator { Iterator(singles: single.makeIterator(), runs: runs) }

    /// The updated objects in one array, built without hashing (a batch update's result).
    var allKeys: [ObjectID] {
        var out: [ObjectID] = []
        out.reserveCapacity(count)
        out += single.keys
        for run in runs {
            for id in run.rowIDs { out.append(ObjectID(entity: run.entity, rowID: id)) }
        }
        return out
    }

    /// How many objects were updated (exact).
    public var underestimatedCount: Int { count }

    /// Adds `mask` to the properties that changed of `id`.
    mutating func formUnion(_ id: ObjectID, _ mask: PropertyMask) {
        if !runs.isEmpty, let i = runs.firstIndex(where: { $0.contains(id) }) {
            if runs[i].mask.isSuperset(of: mask) { return }
            spreadRuns()
        }
        single[id, default: []].formUnion(mask)
    }

    /// Adds another set's objects and masks.
    mutating func formUnion(_ other: UpdatedObjects) {
        if isEmpty {
            self = other
            return
        }
        if other.runs.isEmpty {
            for (id, mask) in other.single { formUnion(id, mask) }
            return
        }
        // Runs stay runs when no object is in both sets (two batch updates of different rows); an object in
        // both needs one mask, and the runs become single entries (rare: a batch update delivered together
        // with another change of the same rows).
        let overlaps = other.contains { self[$0.key] != nil }
        if overlaps {
            spreadRuns()
            for (id, mask) in other { single[id, default: []].formUnion(mask) }
        } else {
            single.merge(other.single) { $0.union($1) }
            runs += other.runs
        }
    }

    /// The same updates without those of `ids`.
    func removing(_ ids: Set<ObjectID>) -> UpdatedObjects {
        var out = self
        out.single = single.filter { !ids.contains($0.key) }
        out.runs = runs.compactMap { run in
            var r = run
            r.rowIDs.removeAll { ids.contains(ObjectID(entity: run.entity, rowID: $0)) }
            return r.rowIDs.isEmpty ? nil : r
        }
        return out
    }

    /// Every run's objects moved into `single`.
    private mutating func spreadRuns() {
        single.reserveCapacity(count)
        for run in runs {
            for id in run.rowIDs { single[ObjectID(entity: run.entity, rowID: id), default: []].formUnion(run.mask) }
        }
        runs = []
    }

    public static func == (a: UpdatedObjects, b: UpdatedObjects) -> Bool {
        if a.runs.isEmpty && b.runs.isEmpty { return a.single == b.single }
        return a.count == b.count && a.allSatisfy { b[$0.key] == $0.value }
    }

    public var description: String {
        runs.isEmpty ? single.description : "\(count) updated objects"
    }
}
