/// A row's place in a results controller: its section and its row within the section.
///
/// ```swift
/// let first = level.object(at: ResultIndex(0, 0))   // section 0, row 0
/// ```
public struct ResultIndex: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The section (0 without a section key).
    public var section: Int
    /// The row within the section.
    public var row: Int

    /// Row `row` of section `section`.
    public init(_ section: Int, _ row: Int) {
        self.section = section
        self.row = row
    }

    public static func < (a: ResultIndex, b: ResultIndex) -> Bool { (a.section, a.row) < (b.section, b.row) }
    public var description: String { "\(section).\(row)" }
}

/// Everything one unit of work changed in a controller's result, with UIKit's batch-update conventions:
/// deletes and move sources in old coordinates, inserts and move destinations in new coordinates, an update
/// names its old and new index, and section changes come before row changes. A deleted section takes its
/// rows with it (no row event names them; a row moving out of it is reported as an insert); an inserted
/// section starts empty and its rows arrive as inserts or move destinations.
///
/// ```swift
/// level.onChange = { batch in
///     print(batch.deletes, batch.inserts, batch.moves)   // old indexes, new indexes, old → new
/// }
/// ```
public struct ResultsBatch: Equatable, Sendable, CustomStringConvertible {
    /// Sections removed, at their old indexes.
    public var deletedSections: [Int] = []
    /// Sections added, at their new indexes.
    public var insertedSections: [Int] = []
    /// Rows removed, at their old indexes.
    public var deletes: [ResultIndex] = []
    /// Rows added, at their new indexes.
    public var inserts: [ResultIndex] = []
    /// Rows that changed place among the others: each from its old index to its new.
    public var moves: [Move] = []
    /// Rows the change touched that kept their place among the others: each with its old index and its new.
    public var updates: [Move] = []
    /// True when the object the request depends on (e.g. the parent of a level) was deleted: the batch
    /// empties the result and the controller delivers nothing more.
    public var invalidated = false
    /// True for the batch ``ResultsController/resume()`` delivers (one, even when nothing changed while
    /// paused): the observer may redraw everything from the controller; the events still take the old
    /// list to the new, for one that animates them.
    public var isReload = false
    /// True for a batch caused inside ``ResultsController/performUserDrivenChange(_:)``: the observer already
    /// shows it, and takes it into its state without animating it again.
    public var isUserDriven = false

    /// A row's old index and its new one, in a move or an update.
    ///
    /// ```swift
    /// for move in batch.moves { print(move.from, "→", move.to) }
    /// ```
    public struct Move: Equatable, Sendable, CustomStringConvertible {
        /// Where the row was, in the old result.
        public var from: ResultIndex
        /// Where the row is, in the new result.
        public var to: ResultIndex
        /// The row that was at `from` and is at `to`.
        public init(_ from: ResultIndex, _ to: ResultIndex) {
            self.from = from
            self.to = to
        }
        public var description: String { "\(from)->\(to)" }
    }

    /// An empty batch.
    public init() {}

    /// True when the batch has no event and is neither an invalidation nor a reload.
    public var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && deletes.isEmpty && inserts.isEmpty && moves.isEmpty
            && updates.isEmpty && !invalidated && !isReload
    }

    /// Events in total: the size of the batch.
    public var count: Int {
        deletedSections.count + insertedSections.count + deletes.count + inserts.count + moves.count + updates.count
    }

    public var description: String {
        var parts: [String] = []
        if !deletedSections.isEmpty { parts.append("deleteSections \(deletedSections)") }
        if !insertedSections.isEmpty { parts.append("insertSections \(insertedSections)") }
        if !deletes.isEmpty { parts.append("delete \(deletes)") }
        if !inserts.isEmpty { parts.append("insert \(inserts)") }
        if !moves.isEmpty { parts.append("move \(moves)") }
        if !updates.isEmpty { parts.append("update \(updates)") }
        if invalidated { parts.append("invalidated") }
        if isReload { parts.append("reload") }
        if isUserDriven { parts.append("user-driven") }
        return parts.joined(separator: "; ")
    }

    /// Applies the batch to the old list of sections (each a list of IDs), as a table view would; the
    /// `inserted` closure names the ID now at a new index. Tests use it to check a batch against a fetch.
    public func apply<T>(to old: [[T]], new: (ResultIndex) -> T) -> [[T]] {
        var sections = old.map { $0.map { Optional($0) } }
        var removeSet = Set(deletes)
        for m in moves { removeSet.insert(m.from) }
        for s in deletedSections.sorted(by: >) { sections.remove(at: s) }
        // Row removals refer to old sections; map old section numbers past the deleted ones.
        let deleted = Set(deletedSections)
        var oldToNow: [Int: Int] = [:]
        var k = 0
        for s in 0..<old.count where !deleted.contains(s) {
            oldToNow[s] = k
            k += 1
        }
        for idx in removeSet.sorted(by: >) {
            guard let s = oldToNow[idx.section] else { continue }
            sections[s].remove(at: idx.row)
        }
        for s in insertedSections.sorted() { sections.insert([], at: s) }
        var adds: [(ResultIndex, T)] = inserts.map { ($0, new($0)) }
        adds += moves.map { ($0.to, new($0.to)) }
        for (idx, value) in adds.sorted(by: { $0.0 < $1.0 }) {
            sections[idx.section].insert(value, at: idx.row)
        }
        return sections.map { $0.compactMap { $0 } }
    }
}
