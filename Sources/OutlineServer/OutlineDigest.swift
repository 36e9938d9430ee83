import Foundation

/// What an outline holds, in 64 bits that do not depend on order: the XOR of each item's hash (the first
/// eight bytes of the SHA-256 of its ID, parent, order key, title, note and done, big-endian), the top item
/// left out. The server keeps it in the transaction of every change (`burrow.outline.digest`, schema 3);
/// a device computes it over its own items once nothing waits to be sent, and the two must agree at the
/// same change number: a cycle, a missing item or a stray key shows, where a count of items would not.
///
/// ```swift
/// var digest = OutlineDigest()
/// for item in items { digest.toggle(item) }   // toggling an item again takes it out
/// ```
public struct OutlineDigest: Hashable, Sendable, CustomStringConvertible {
    /// The XOR of the items' hashes (0 for an outline with no item below the top).
    public var value: Int64

    public init(value: Int64 = 0) { self.value = value }

    /// The digest of `items` (a top item among them counts for nothing).
    public init(_ items: some Sequence<ServerItem>) {
        self.init()
        for item in items { toggle(item) }
    }

    /// Adds `item` when it is not in, takes it out when it is (XOR).
    public mutating func toggle(_ item: ServerItem) { value ^= Self.hash(item) }

    /// An item's share: 0 for the top item (no parent), which the server makes and no device edits.
    public static func hash(_ item: ServerItem) -> Int64 {
        guard let parent = item.parent else { return 0 }
        let bytes = SHA256.hash(
            canonical(id: item.id, parent: parent, ord: item.ord, title: item.title, note: item.note, done: item.isDone, extras: item.extras))
        return Int64(bitPattern: bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }

    /// The bytes hashed, as `burrow.item_hash2` builds them: `id/parent/` then each text as its length in
    /// bytes, `:` and the text (a missing note as `~`), then `T` or `F`, then each extra's name and value so,
    /// by name in byte order (an item without extras hashes as it did before schema 5).
    static func canonical(id: UUID, parent: UUID, ord: String, title: String, note: String?, done: Bool, extras: [String: String] = [:])
        -> [UInt8]
    {
        var out = Array("\(id.uuidString.lowercased())/\(parent.uuidString.lowercased())/".utf8)
        func text(_ s: String) {
            out += Array(String(s.utf8.count).utf8)
            out.append(UInt8(ascii: ":"))
            out += Array(s.utf8)
        }
        text(ord)
        text(title)
        if let note { text(note) } else { out.append(UInt8(ascii: "~")) }
        out.append(UInt8(ascii: done ? "T" : "F"))
        for key in extras.keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
            text(key)
            text(extras[key]!)
        }
        return out
    }

    public var description: String { String(UInt64(bitPattern: value), radix: 16) }
}
