/// Lightweight migration: the SQL that takes a store from the model that wrote it to the current model,
/// when the change is additive; otherwise an `.incompatibleModel` error listing every non-additive change.
enum SchemaMigration {
    /// What a migration runs: schema statements, then statements that only rewrite derived values.
    struct Plan {
        var schema: [String]
        var recounts: [String]
        /// True when the model has an entity the store has no table for.
        var addsTables = false
        var statements: [String] { schema + recounts }
    }

    static func plan(from stored: SQLiteStore.StoredModel, to model: Model) throws(StoreError) -> Plan {
        let old = stored.snapshot, new = model.snapshot
        var sql: [String] = []
        var problems: [String] = []
        var addsTables = false
        // Run last: they read columns the plan may add.
        var recounts: [String] = []
        for e in old.entities where new.entity(e.name) == nil {
            problems.append("entity \(e.name) was removed")
        }
        for e in new.entities {
            guard let o = old.entity(e.name) else {
                addsTables = true
                sql.append(Schema.createTable(e, in: new))
                sql.append(contentsOf: Schema.indexes(e).values.sorted())
                continue
            }
            let desc = model.entity(e.name)!
            for oa in o.storedAttributes {
                guard let na = e.attributes.first(where: { $0.name == oa.name }), !na.transient else {
                    problems.append("attribute \(e.name).\(oa.name) was removed")
                    continue
                }
                if na.type != oa.type {
                    problems.append("attribute \(e.name).\(oa.name) changed type from \(oa.type.rawValue) to \(na.type.rawValue)")
                }
                if oa.optional && !na.optional {
                    problems.append("attribute \(e.name).\(oa.name) became required")
                }
            }
            for na in e.storedAttributes where !o.storedAttributes.contains(where: { $0.name == na.name }) {
                let def = desc.property(na.name)!.attribute!.defaultValue
                if !na.optional && def.isNull {
                    problems.append("new required attribute \(e.name).\(na.name) has no default for existing rows")
                    continue
                }
                sql.append("ALTER TABLE \(Schema.quote(e.name)) ADD COLUMN \(Schema.column(na, default: def))")
            }
            // A count the store now maintains (new, or newly maintained) starts from the rows as they are.
            for na in e.storedAttributes where na.maintained != nil {
                guard o.storedAttributes.first(where: { $0.name == na.name })?.maintained != na.maintained,
                    let sql = MaintainedCounts.recountStatement(model, owner: desc, slot: desc.slot(na.name)!)
                else { continue }
                recounts.append(sql)
            }
            for fk in o.foreignKeys where !e.foreignKeys.contains(fk) {
                problems.append("relationship \(e.name).\(fk) was removed or changed sides")
            }
            for r in o.relationships {
                if let nr = e.relationships.first(where: { $0.name == r.name }),
                    nr.destination != r.destination || nr.isToMany != r.isToMany
                {
                    problems.append("relationship \(e.name).\(r.name) changed its destination or cardinality")
                }
            }
            for fk in e.foreignKeys where !o.foreignKeys.contains(fk) {
                let r = e.relationships.first { $0.name == fk }!
                if !r.isOptional {
                    problems.append("new required relationship \(e.name).\(fk) has no value for existing rows")
                    continue
                }
                sql.append("ALTER TABLE \(Schema.quote(e.name)) ADD COLUMN \(Schema.foreignKeyColumn(r))")
            }
            let oldIndexes = Schema.indexes(o), newIndexes = Schema.indexes(e)
            for name in oldIndexes.keys.sorted() where newIndexes[name] == nil {
                sql.append("DROP INDEX IF EXISTS \(Schema.quote(name))")
            }
            for name in newIndexes.keys.sorted() where oldIndexes[name] == nil {
                sql.append(newIndexes[name]!)
            }
        }
        if !problems.isEmpty {
            throw StoreError(
                .incompatibleModel,
                "the store was written by an incompatible model: " + problems.joined(separator: "; "))
        }
        return Plan(schema: sql, recounts: recounts, addsTables: addsTables)
    }
}
