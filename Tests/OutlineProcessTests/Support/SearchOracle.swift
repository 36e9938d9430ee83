import Foundation
import ObjectGraph
import Outline
import TestSupport

/// What `burrow find` must answer, worked out without the search index: the items as `burrow ls --tree
/// --json` lists them (IDs, titles and notes, in outline order; `burrow export --format json` must list the
/// same titles and notes in the same order), folded by the plainest rule there is, and a byte-substring test.
///
/// The plain folding knows ASCII (A–Z to a–z) and six letters whose case and diacritic folding no one can
/// doubt: Ö/ö → o, É/é → e, Ü/ü → u. A text with any other character is refused (nil), so a test that
/// strays from that alphabet fails loudly instead of trusting a guess.
struct SearchOracle {
    struct Entry: Equatable, CustomStringConvertible {
        var id: Int64
        var title: String
        var note: String?
        var description: String { "#\(id) \(title.debugDescription)" + (note.map { " / " + String($0.prefix(40)).debugDescription } ?? "") }
    }

    /// Every item but the top one, in outline order.
    var entries: [Entry]
    let db: String

    /// Reads the outline at `db` through the real `burrow` (ls, and export to cross-check it). Throws when
    /// the two disagree or cannot be read.
    init(db: String) throws {
        self.db = db
        let ls = BurrowProcess.run(["ls", "--tree", "--json", "--db", db])
        guard ls.status == 0 else { throw OracleError("burrow ls failed (\(ls.status)): \(ls.err)") }
        entries = []
        func walk(_ nodes: [[String: Any]]) throws {
            for node in nodes {
                guard let id = (node["id"] as? NSNumber)?.int64Value, let title = node["title"] as? String else {
                    throw OracleError("ls --json item without id or title: \(node)")
                }
                entries.append(Entry(id: id, title: title, note: node["note"] as? String))
                try walk(node["children"] as? [[String: Any]] ?? [])
            }
        }
        try walk(try SearchOracle.json(ls.out) as? [[String: Any]] ?? [])
        let export = BurrowProcess.run(["export", "--format", "json", "--db", db])
        guard export.status == 0 else { throw OracleError("burrow export failed (\(export.status)): \(export.err)") }
        var exported: [(String, String?)] = []
        func flatten(_ nodes: [[String: Any]]) {
            for node in nodes {
                exported.append((node["title"] as? String ?? "<no title>", node["note"] as? String))
                flatten(node["children"] as? [[String: Any]] ?? [])
            }
        }
        flatten((try SearchOracle.json(export.out) as? [String: Any])?["items"] as? [[String: Any]] ?? [])
        guard exported.count == entries.count, zip(exported, entries).allSatisfy({ $0.0 == $1.title && $0.1 == $1.note }) else {
            throw OracleError("export lists \(exported.count) items, ls \(entries.count), or they differ")
        }
    }

    static func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    /// `text` folded by the plain rule; nil when it holds a character the rule does not know.
    static func plainFold(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for u in text.unicodeScalars {
            switch u.value {
            case 0x41...0x5A: out.append(UInt8(u.value) + 0x20)
            case 0..<0x80: out.append(UInt8(u.value))
            case 0xD6, 0xF6: out.append(UInt8(ascii: "o"))  // Ö ö
            case 0xC9, 0xE9: out.append(UInt8(ascii: "e"))  // É é
            case 0xDC, 0xFC: out.append(UInt8(ascii: "u"))  // Ü ü
            default: return nil
            }
        }
        return out
    }

    /// The items `burrow find query` must list, in outline order, by the plain rule. Throws when a text or
    /// the query holds a character the rule does not know.
    func expected(_ query: String) throws -> [Int64] {
        guard let needle = SearchOracle.plainFold(query) else { throw OracleError("query \(query.debugDescription) is outside the plain alphabet") }
        return try expected(needle: needle, fold: SearchOracle.plainFold)
    }

    /// The same with another folding (for texts outside the plain alphabet, where only the index, not the
    /// folding, is under test).
    func expected(needle: [UInt8], fold: (String) -> [UInt8]?) throws -> [Int64] {
        var out: [Int64] = []
        for e in entries {
            guard let title = fold(e.title) else { throw OracleError("\(e) is outside the alphabet") }
            var hit = title.holds(needle)
            if !hit, let note = e.note {
                guard let n = fold(note) else { throw OracleError("the note of \(e) is outside the alphabet") }
                hit = n.holds(needle)
            }
            if hit { out.append(e.id) }
        }
        return out
    }

    /// The IDs `burrow find query --json` lists (in its order), or a description of its failure.
    static func find(_ query: String, db: String, limit: Int? = nil) -> Result<[Int64], OracleError> {
        let r = BurrowProcess.run(["find", query, "--json", "--db", db] + (limit.map { ["--limit", String($0)] } ?? []))
        // Status 1 is "nothing found" (as grep), with an empty array; anything else is a failure.
        guard r.status == 0 || (r.status == 1 && r.out == "[]\n") else {
            return .failure(OracleError("find \(query.debugDescription) exited \(r.status): \(r.err.prefix(400))"))
        }
        guard let array = (try? json(r.out)) as? [[String: Any]] else {
            return .failure(OracleError("find \(query.debugDescription) printed no JSON array: \(r.out.prefix(200))"))
        }
        return .success(array.compactMap { ($0["id"] as? NSNumber)?.int64Value })
    }

    /// What `burrow find query --json` lists, found by this process the way that command finds it: the
    /// outline opened for reading (a connection of its own, so it sees what is committed now), its search,
    /// the hits in outline order up to `limit`.
    static func findHere(_ query: String, db: String, limit: Int? = nil) -> Result<[Int64], OracleError> {
        do {
            let outline = try Outline(readingAt: db)
            let results = try outline.find(query)
            try results.load(upTo: limit ?? Int.max)
            return .success(results.ordered.prefix(limit ?? Int.max).map(\.rowID))
        } catch {
            return .failure(OracleError("find \(query.debugDescription) here: \(error)"))
        }
    }

    /// Every query of `queries` compared with the plain answer: the differences, as sentences (none when
    /// search is right). The first query goes through the real `burrow find` (a process, so a crash is an
    /// exit status); the rest through `findHere`, the same search without a process's start for each, which
    /// was most of what the search tests cost (twice that under AddressSanitizer).
    func mismatches(_ queries: [String], limitToo: Bool = false) throws -> [String] {
        var out: [String] = []
        for (k, q) in queries.enumerated() {
            let want = try expected(q)
            let find = k == 0 ? SearchOracle.find : SearchOracle.findHere
            switch find(q, db, nil) {
            case .failure(let e): out.append(e.message)
            case .success(let got) where got != want:
                let missing = want.filter { !got.contains($0) }, extra = got.filter { !want.contains($0) }
                out.append(
                    "find \(q.debugDescription): \(got.count) hits, expected \(want.count); missing \(describe(missing)); "
                        + "extra \(describe(extra))" + (missing.isEmpty && extra.isEmpty ? "; order differs" : ""))
            case .success:
                if limitToo, want.count > 2, case .success(let some) = find(q, db, 2), some != Array(want.prefix(2)) {
                    out.append("find \(q.debugDescription) --limit 2 gave \(some), expected \(Array(want.prefix(2)))")
                }
            }
        }
        return out
    }

    func describe(_ ids: [Int64]) -> String {
        let shown = ids.prefix(4).map { id in entries.first { $0.id == id }?.description ?? "#\(id) (no such item)" }
        return "[" + shown.joined(separator: ", ") + (ids.count > 4 ? ", … \(ids.count - 4) more" : "") + "]"
    }

    /// Substrings of stored texts (1 to 8 characters, cut at character boundaries), for queries that hit.
    func sampleQueries(_ n: Int, using rng: inout SeededRandom) -> [String] {
        var out: [String] = []
        var tries = 0
        while out.count < n, tries < n * 20, !entries.isEmpty {
            tries += 1
            let e = entries[rng.below(entries.count)]
            let text = rng.below(3) == 0 ? (e.note ?? e.title) : e.title
            let chars = Array(text)
            guard !chars.isEmpty else { continue }
            let a = rng.below(chars.count)
            let q = String(chars[a..<min(chars.count, a + 1 + rng.below(8))])
            if !q.trimmingCharacters(in: .whitespaces).isEmpty { out.append(q) }
        }
        return out
    }
}

struct OracleError: Error, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// Runs `burrow check` and returns (exit status, everything it printed).
func burrowCheck(_ db: String, repair: Bool = false) -> (status: Int32, text: String) {
    let r = BurrowProcess.run(["check"] + (repair ? ["--repair"] : []) + ["--db", db])
    return (r.status, r.out + r.err)
}

extension Array where Element == UInt8 {
    /// True when `needle`'s bytes appear in a row here: the plainest search.
    func holds(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard count >= needle.count else { return false }
        for i in 0...(count - needle.count) where self[i] == needle[0] {
            var k = 1
            while k < needle.count && self[i + k] == needle[k] { k += 1 }
            if k == needle.count { return true }
        }
        return false
    }
}
