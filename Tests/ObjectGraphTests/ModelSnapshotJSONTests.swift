import Foundation
import TestSupport
import Testing

@testable import ObjectGraph

/// A model's version hash digests its snapshot's JSON, and every store and undo step records that hash: the
/// JSON written by hand (`plainJSON`, no `JSONEncoder` on a command's way to its store) must be byte for byte
/// what `JSONEncoder` writes, or every existing store would look like another model's.
@Suite struct ModelSnapshotJSONTests {
    static let names = ["Item", "title", "order", "childCount", "a", "x_1", "Tag", "parent", "items", "modified"]
    /// Strings that need an escape (or may), which must send the snapshot to `JSONEncoder`.
    static let awkward = ["a/b", "quote\"d", "back\\slash", "tab\there", "Zürich", "new\nline", "^[a-z]+$", "emoji 🦫"]

    static func text(_ rng: inout SeededRandom, awkward rate: Int) -> String {
        if rng.below(100) < rate { return rng.pick(Self.awkward)! }
        return rng.pick(Self.names)! + (rng.below(3) == 0 ? " \(rng.below(1000))" : "")
    }

    static func optional<T>(_ rng: inout SeededRandom, _ make: (inout SeededRandom) -> T) -> T? {
        rng.below(2) == 0 ? nil : make(&rng)
    }

    static func snapshot(seed: UInt64, awkward rate: Int) throws -> ModelSnapshot {
        var rng = SeededRandom(seed: seed)
        var s = try Model { Entity("A") { Attribute("x", .string) } }.snapshot
        s.version = rng.below(100)
        s.entities = (0..<1 + rng.below(4)).map { _ in
            ModelSnapshot.EntitySnapshot(
                name: text(&rng, awkward: rate),
                attributes: (0..<rng.below(6)).map { _ in
                    ModelSnapshot.AttributeSnapshot(
                        name: text(&rng, awkward: rate), type: rng.pick(AttributeType.allCases)!, optional: rng.below(2) == 0,
                        defaultValue: optional(&rng) { ["s:", "s:a0", "b:1", "i:-3", "d:1.5", "t:0.0"][$0.below(6)] },
                        minimum: rate > 0 && rng.below(8) == 0 ? Double(rng.below(100)) / 4 : nil,
                        maximum: rate > 0 && rng.below(8) == 0 ? 1e20 : nil,
                        minLength: optional(&rng) { $0.below(10) }, maxLength: optional(&rng) { $0.below(1000) },
                        pattern: optional(&rng) { text(&$0, awkward: rate) }, indexed: rng.below(2) == 0, unique: rng.below(2) == 0,
                        transient: rng.below(2) == 0, maintained: optional(&rng) { "count(\(text(&$0, awkward: rate)))" })
                },
                relationships: (0..<rng.below(4)).map { _ in
                    Relationship(
                        text(&rng, awkward: rate), text(&rng, awkward: rate), inverse: text(&rng, awkward: rate), toMany: rng.below(2) == 0,
                        deleteRule: [.nullify, .cascade, .deny][rng.below(3)], optional: rng.below(2) == 0)
                },
                foreignKeys: (0..<rng.below(3)).map { _ in text(&rng, awkward: rate) },
                indexes: (0..<rng.below(3)).map { _ in
                    CompoundIndex(text(&rng, awkward: rate), text(&rng, awkward: rate), unique: rng.below(2) == 0, sparse: rng.below(2) == 0)
                },
                fullText: optional(&rng) { r in (0..<r.below(3)).map { _ in text(&r, awkward: rate) } })
        }
        return s
    }

    @Test func theHandWrittenJSONIsJSONEncodersByteForByte() throws {
        var plain = 0, encoded = 0
        for seed in UInt64(1)...600 {
            let s = try Self.snapshot(seed: seed, awkward: seed % 3 == 0 ? 10 : 0)
            if let bytes = s.plainJSON() {
                plain += 1
                let expected = [UInt8](s.encodedJSON)
                #expect(bytes == expected, "seed \(seed)")
                if bytes != expected { break }
            } else {
                encoded += 1
                // Only what it cannot spell is left to JSONEncoder.
                let bounds = s.entities.contains { e in e.attributes.contains { $0.minimum != nil || $0.maximum != nil } }
                let structural = Set("{}[]\",:".utf8)
                let escaped = s.encodedJSON.contains { b in
                    !(b.isASCIILetterOrDigit || structural.contains(b) || Set("_.()- ".utf8).contains(b))
                }
                let needsEncoder = bounds || escaped
                #expect(needsEncoder, "seed \(seed) fell back without a reason")
            }
            #expect(s.json == (s.plainJSON().map { Data($0) } ?? s.encodedJSON))
        }
        #expect(plain > 200 && encoded > 100, "\(plain) written by hand, \(encoded) by JSONEncoder")
    }

    @Test func aDeclaredModelKeepsItsHash() throws {
        let model = try Model(version: 3) {
            Entity("Item") {
                Attribute("title", .string, default: "")
                Attribute("done", .bool, default: false)
                Attribute.count("childCount", of: "children")
                Attribute("rootMarker", .integer64, optional: true, unique: true)
                Relationship.toOne("parent", "Item", inverse: "children")
                Relationship.toMany("children", "Item", inverse: "parent", deleteRule: .cascade)
                CompoundIndex("parent", "title")
                FullTextIndex("title")
            }
        }
        let bytes = try #require(model.snapshot.plainJSON())
        #expect(bytes == [UInt8](model.snapshot.encodedJSON))
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in model.snapshot.encodedJSON { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        #expect(model.versionHash == String(h, radix: 16).leftPadded(to: 16))
    }
}

extension UInt8 {
    fileprivate var isASCIILetterOrDigit: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
