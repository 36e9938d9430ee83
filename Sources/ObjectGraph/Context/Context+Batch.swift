extension Context {
    /// Sets `values` on every object `request` matches in one statement, without making objects (Core
    /// Data's batch update): for "mark all 100,000 done". Results controllers of every context and process
    /// get it as a diff, and objects held reload. Not an undo step (as a save without undo: undoing an
    /// earlier step over these values refuses). Attributes only: stored, not maintained, in no full-text
    /// index; the values are validated once, before anything is written. Returns the objects changed.
    ///
    /// ```swift
    /// try context.batchUpdate(FetchRequest("Task", where: Property("done") == false), set: ["done": true])
    /// ```
    @discardableResult
    public func batchUpdate(_ request: FetchRequest, set values: [String: Value]) throws -> [ObjectID] {
        let entity = try batchEntity(of: request, "update")
        var slots: [(slot: Int, value: Value)] = []
        var row = entity.defaults
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            let p = try entity.storedProperty(key)
            guard p.attribute != nil, !entity.isMaintained(p.slot), !entity.fullTextSlots.contains(p.slot) else {
                throw StoreError(
                    .invalidRequest,
                    "a batch update sets stored attributes that the store does not maintain and no full-text index holds; "
                        + "\(entity.name).\(key) is not one (change it on the objects and save)",
                    path: store.path, entity: entity.name, property: key)
            }
            slots.append((p.slot, value))
            row[p.slot] = value
        }
        guard !slots.isEmpty else { return [] }
        var errors: [ValidationError] = []
        validator.validate(values: row, id: ObjectID(entity: entity.index, rowID: 0), entity: entity, into: &errors)
        let names = Set(values.keys)
        errors.removeAll { !names.contains($0.property) }
        if !errors.isEmpty { throw ValidationFailure(errors: errors) }
        var changes = ChangeSet()
        try store.writeTransaction { logged in
            changes = try store.backend.batchUpdate(entity, where: request.predicate, set: slots, author: transactionAuthor)
            logged = try store.backend.finishLog()
        }
        publishBatch(changes)
        return changes[entity.index].updated.allKeys
    }

    /// Deletes every object `request` matches without making objects (Core Data's batch delete): their
    /// rows go in one transaction with the counts the store keeps of them, results controllers everywhere
    /// get it as a diff, objects held become inaccessible. Not an undo step. Only for an entity nothing
    /// else refers to (no to-many, many-to-many or inverse to-one relationship: those need delete rules,
    /// which `delete(_:)` applies). Returns the objects deleted.
    ///
    /// ```swift
    /// try context.batchDelete(FetchRequest("Task", where: Property("done") == true))
    /// ```
    @discardableResult
    public func batchDelete(_ request: FetchRequest) throws -> [ObjectID] {
        let entity = try batchEntity(of: request, "delete")
        if let r = entity.properties.first(where: { $0.relationship.map { !$0.storesForeignKey || $0.isManyToMany } ?? false }) {
            throw StoreError(
                .invalidRequest,
                "a batch delete deletes rows nothing else refers to; \(entity.name).\(r.name) refers to others that need its delete rule "
                    + "(delete the objects with delete(_:) and save)",
                path: store.path, entity: entity.name, property: r.name)
        }
        var result = StoreWriteResult(changes: ChangeSet(), counts: [])
        try store.writeTransaction { logged in
            result = try store.backend.batchDelete(entity, where: request.predicate, author: transactionAuthor)
            logged = try store.backend.finishLog()
        }
        for r in result.counts { rowCache[r.id] = nil }
        publishBatch(result.changes)
        return result.changes[entity.index].deleted
    }

    /// The entity a batch operation works on, once the context may make one: no unsaved changes (they
    /// could be about the same rows), no outbox to record it in, a request without a window.
    private func batchEntity(of request: FetchRequest, _ verb: String) throws -> EntityDescription {
        precondition(!store.isInTransaction, "batch \(verb) inside Context.transaction")
        let entity = try entity(named: request.entity)
        if hasChanges {
            throw StoreError(.conflict, "cannot batch \(verb) with unsaved changes; save or roll back first", path: store.path)
        }
        guard request.limit == nil && request.offset == 0 else {
            throw StoreError(.invalidRequest, "a batch \(verb) takes every object its request matches: no limit or offset", path: store.path)
        }
        if try store.backend.outboxIsEnabled() {
            throw StoreError(
                .invalidRequest,
                "this store shares its changes through an outbox, which a batch \(verb) would skip; change the objects and save",
                path: store.path)
        }
        return entity
    }

    /// Tells this context's objects, observers and controllers, and every other context on the store, what
    /// a batch operation committed.
    private func publishBatch(_ changes: ChangeSet) {
        guard !changes.isEmpty else { return }
        takeIn(changes)
        for token in observers.keys.sorted() { observers[token]?(changes) }
        store.deliver(changes, from: self)
    }
}
