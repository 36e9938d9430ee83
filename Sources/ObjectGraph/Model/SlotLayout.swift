import Foundation

/// What an encoded step's numbers mean: each entity in its index order, with its slots' property names
/// (attributes, then relationships, in declaration order). A model snapshot keeps names sorted for its
/// hash and so cannot say; a store keeps this beside it, so steps written under one model version can be
/// read under the next (``UndoRecord/translated(from:to:)``).
struct SlotLayout: Codable, Equatable, Sendable {
    struct EntitySlots: Codable, Equatable, Sendable {
        var name: String
        var slots: [String]
    }

    var entities: [EntitySlots]

    init(_ model: Model) {
        entities = model.entities.map { e in EntitySlots(name: e.name, slots: e.properties.map(\.name)) }
    }

    /// The layout of the model that wrote `snapshot`, for a store written before layouts were kept: `model`'s
    /// order with only the names the snapshot has. Right whenever the model grew only by additions (what a
    /// migration allows) and never reordered what it declared; the slot counts are checked against the
    /// snapshot's, so a layout that cannot be right is nil.
    init?(inferredFrom snapshot: ModelSnapshot, by model: Model) {
        var out: [EntitySlots] = []
        for e in model.entities {
            guard let old = snapshot.entity(e.name) else { continue }
            let attributes = Set(old.attributes.map(\.name)), relationships = Set(old.relationships.map(\.name))
            let slots = e.properties.filter { p in p.attribute != nil ? attributes.contains(p.name) : relationships.contains(p.name) }
            guard slots.count == old.attributes.count + old.relationships.count else { return nil }
            out.append(EntitySlots(name: e.name, slots: slots.map(\.name)))
        }
        guard out.count == snapshot.entities.count else { return nil }
        entities = out
    }

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Safe: the layout is strings and arrays of strings only, and JSONEncoder fails only on values it
        // cannot write (non-finite numbers, a throwing `encode`). OutboxUpgradeTests.aLayoutReadsBackAsWritten
        // encodes every entity and property name a model may take and decodes it back.
        return String(decoding: try! encoder.encode(self), as: UTF8.self)
    }

    /// The layout `text` holds. Every open reads the stored layout, which is nearly always the layout of the
    /// model opening it: when `text` is `expected`'s ``plainJSON``, that is the answer without JSONDecoder (a
    /// sixteenth of a quick command's instructions).
    static func decode(_ text: String, expecting expected: SlotLayout? = nil) -> SlotLayout? {
        if let expected, text == expected.plainJSON { return expected }
        // The bytes copied from the string's buffer: `Data(text.utf8)` casts the view to a protocol at run
        // time, which scans every conformance in the binary the first time.
        var text = text
        return try? JSONDecoder().decode(SlotLayout.self, from: text.withUTF8 { Data(buffer: $0) })
    }

    /// ``json`` written by hand, byte for byte what JSONEncoder writes for the names a model takes (sorted keys,
    /// no spaces; `"`, `\` and `/` escaped, control characters as `\u00xx` or their short escapes). Only a
    /// fast path compares with it: text it fails to match is decoded in full.
    var plainJSON: String {
        var out = "{\"entities\":["
        for (i, e) in entities.enumerated() {
            if i > 0 { out += "," }
            out += "{\"name\":"
            SlotLayout.quote(e.name, into: &out)
            out += ",\"slots\":["
            for (j, slot) in e.slots.enumerated() {
                if j > 0 { out += "," }
                SlotLayout.quote(slot, into: &out)
            }
            out += "]}"
        }
        out += "]}"
        return out
    }

    private static func quote(_ text: String, into out: inout String) {
        out += "\""
        for u in text.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/": out += "\\/"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where u.value < 0x20:
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        out += "\""
    }
}
