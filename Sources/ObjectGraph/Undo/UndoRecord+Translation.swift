/// A step written under an earlier model version, read under the current one: the same objects and values,
/// with entity and slot numbers mapped by name, and each slot the new model added holding its default
/// (what the migration gave the stored rows).
extension UndoRecord {
    /// `bytes` (written under `old`) as the same step in `model`'s numbers, or nil when they do not decode
    /// under `old` or name what `model` lacks (a step that cannot be translated is left to be refused).
    static func translated(_ bytes: [UInt8], name: String, from old: SlotLayout, to model: Model) -> [UInt8]? {
        guard let record = decode(bytes, name: name, widths: old.entities.map(\.slots.count)) else { return nil }
        var entityMap: [Int] = []
        var slotMaps: [[Int]] = []
        for e in old.entities {
            guard let new = model.entity(e.name) else { return nil }
            var map: [Int] = []
            for slot in e.slots {
                guard let s = new.slot(slot) else { return nil }
                map.append(s)
            }
            entityMap.append(new.index)
            slotMaps.append(map)
        }
        // Bytes from a file: an entity or a row the old layout does not have makes the step untranslatable
        // (it stays, and is refused when read), never an index out of range.
        func row(_ values: [Value]?, _ entity: Int) -> [Value]?? {
            guard let values else { return .some(nil) }
            guard values.count == slotMaps[entity].count else { return nil }
            var out = model.entities[entityMap[entity]].defaults
            for (i, v) in values.enumerated() { out[slotMaps[entity][i]] = v }
            return .some(out)
        }
        var out = UndoRecord(name: name)
        out.reserve(record.entries.count)
        for e in record.entries {
            let entity = e.id.entity
            guard entity >= 0, entity < entityMap.count, let before = row(e.before, entity), let after = row(e.after, entity) else { return nil }
            out.append(ObjectID(entity: entityMap[entity], rowID: e.id.rowID), before: before, after: after)
        }
        var fingerprinted: [(id: ObjectID, fingerprint: UInt64)] = []
        for f in record.fingerprinted {
            guard f.id.entity >= 0, f.id.entity < entityMap.count else { return nil }
            fingerprinted.append((ObjectID(entity: entityMap[f.id.entity], rowID: f.id.rowID), f.fingerprint))
        }
        out.appendFingerprinted(fingerprinted)
        guard out.fits(model) else { return nil }
        // A history's step keeps changed slots only, an outbox's whole rows: each stays the kind it was.
        let sparse = bytes.starts(with: magicChangedOnly) || bytes.starts(with: magicChangedOnlyFingerprinted)
        return out.encoded(changedOnly: sparse)
    }
}
