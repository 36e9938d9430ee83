extension UndoRecord {
    /// The step of one saved unit of work: every object it inserted, changed or deleted (and the rows it
    /// added or deleted without objects), with its stored state before and after.
    init(
        _ unit: UnitOfWork, rows: [(EntityDescription, [ObjectID], [[Value]])], deletedRows: [(EntityDescription, [ObjectID], [[Value]])] = [],
        name: String
    ) {
        self.init(name: name)
        for o in unit.live { append(o.objectID, before: nil, after: o.values) }
        for (_, ids, values) in rows { for (id, row) in zip(ids, values) { append(id, before: nil, after: row) } }
        for o in unit.changed where o.committed != nil { append(o.objectID, before: o.committed, after: o.values) }
        for o in unit.gone { append(o.objectID, before: o.committed ?? o.values, after: nil) }
        for (_, ids, values) in deletedRows { for (id, row) in zip(ids, values) { append(id, before: row, after: nil) } }
    }
}
