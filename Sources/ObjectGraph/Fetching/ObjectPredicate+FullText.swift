extension ObjectPredicate {
    /// The text of a condition the entity's full-text index can narrow: one that every match of the
    /// predicate must meet, a ``TextTest/containsFolded`` test of an indexed attribute, or several such tests
    /// of one text joined by OR (a search of title or note). Every row it matches is among the index's
    /// matches of that text, so a store may read only those rows and test the whole predicate on them.
    /// Nil when there is none (tests of other attributes, other texts under one OR, a test under NOT).
    func fullTextNeedle(for entity: EntityDescription) -> String? {
        guard !entity.fullTextSlots.isEmpty else { return nil }
        switch self {
        case .and(let ps):
            for p in ps { if let needle = p.fullTextNeedle(for: entity) { return needle } }
            return nil
        case .or(let ps):
            var needle: String?
            for p in ps {
                guard let s = p.indexedText(entity), needle == nil || needle == s else { return nil }
                needle = s
            }
            return needle
        default: return indexedText(entity)
        }
    }

    /// The text of this test when it is a folded containment test of an attribute the index holds.
    private func indexedText(_ entity: EntityDescription) -> String? {
        guard case .text(let key, .containsFolded, let s, _) = self, let slot = entity.property(key)?.slot,
            entity.fullTextSlots.contains(slot)
        else { return nil }
        return s
    }
}
