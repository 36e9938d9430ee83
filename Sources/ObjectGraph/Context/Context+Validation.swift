extension Context {
    /// Checks every stored attribute and required to-one of `o`.
    func validate(_ o: ManagedObject, into errors: inout [ValidationError]) {
        let e = o.entity
        validator.validate(values: o.values, id: o.objectID, entity: e, into: &errors)
        for slot in e.requiredToOneSlots where o.toOneID(slot: slot, e.properties[slot].relationship!) == nil {
            errors.append(ValidationError(object: o.objectID, entity: e.name, property: e.properties[slot].name, rule: .required, value: .null))
        }
    }

    /// A deleted object may not leave objects behind through a deny rule.
    func validateDelete(_ o: ManagedObject, into errors: inout [ValidationError]) {
        for p in o.entity.properties {
            guard let r = p.relationship, r.deleteRule == .deny else { continue }
            let ids: [Int64] = r.storesForeignKey ? (o.toOneID(slot: p.slot, r).map { [$0] } ?? []) : Array(o.members(slot: p.slot))
            let left = ids.filter { registered[ObjectID(entity: r.destination, rowID: $0)]?.isDeleted != true }
            if !left.isEmpty {
                errors.append(
                    ValidationError(object: o.objectID, entity: o.entity.name, property: p.name, rule: .deleteDenied(count: left.count), value: .null)
                )
            }
        }
    }
}
