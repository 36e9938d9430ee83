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

    /// The store's answer, kept as its size and a digest of its rows in order: a unit holds up to `limit`
    /// answers until it ends, and a fetch's answer can be a million IDs (8 MB), which the digest is not. Two
    /// different answers of one size agree in the digest with a chance of about 2⁻⁶⁴ (the check would then
    /// pass a stale unit, as a unit that asked nothing passes).
    struct Answer: Equatable {
        let count: Int
        let digest: UInt64

        /// A fetch's IDs, in order.
        static func ids(_ ids: [Int64]) -> Answer {
            var h: UInt64 = 0x243F_6A88_85A3_08D3
            for id in ids { h = mix(h, UInt64(bitPattern: id)) }
            return Answer(count: ids.count, digest: h)
        }

        /// A count.
        static func count(_ n: Int) -> Answer { Answer(count: n, digest: 0) }

        /// `fetchValues`' rows: each row's ID and values, in order.
        static func values(ids: [Int64], values: [[Value]]) -> Answer {
            var h: UInt64 = 0x1319_8A2E_0370_7344
            for (id, row) in zip(ids, values) {
                var hasher = Hasher()
                hasher.combine(row)
                h = mix(mix(h, UInt64(bitPattern: id)), UInt64(bitPattern: Int64(hasher.finalize())))
            }
            return Answer(count: ids.count, digest: h)
        }

        /// One word into the digest, order-sensitive (a multiply and a rotation, as in wyhash's mixing).
        private static func mix(_ h: UInt64, _ word: UInt64) -> UInt64 {
            let m = (h ^ word).multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15)
            return m.high ^ m.low
        }
    }

    /// Questions a unit keeps with their answers at most; past it, a commit elsewhere that changed any row of
    /// an entity asked about refuses the save (an import that fetches in a loop should write in
    /// `transaction { }`, which reads inside the write lock).
    static let limit = 64
}
