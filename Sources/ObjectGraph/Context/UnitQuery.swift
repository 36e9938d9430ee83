/// A question a unit of work asked the store (a fetch's rows, a count, values) and the store's answer, kept
/// for the plain save's check: asked again inside the write transaction, a different answer means a commit
/// made elsewhere changed what the unit read after it read it (a row that came into or left a fetch, a
/// count that moved), so what the unit derived may be stale: a top-level list's next key, which no object
/// the unit writes would show.
struct UnitQuery: Hashable {
    /// What was asked: the request as the store reads it (this context's unsaved changes left out), and
    /// which question.
    enum Kind: Hashable {
        case ids
        case count
        case values(slots: [Int])
    }

    let request: FetchRequest
    let kind: Kind

    /// The store's answer.
    enum Answer: Equatable {
        case ids([Int64])
        case count(Int)
        case values(ids: [Int64], values: [[Value]])
    }

    /// Questions a unit keeps with their answers at most; past it, a commit elsewhere that changed any row of
    /// an entity asked about refuses the save (an import that fetches in a loop should write in
    /// `transaction { }`, which reads inside the write lock).
    static let limit = 64
}
