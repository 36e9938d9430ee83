import Testing

@testable import ObjectGraph

@Suite struct DeleteRuleTests {
    /// An owner with one pet per relationship, each pet with a toy; names are tagged for the delete log.
    func world(_ tag: String) throws -> (Context, ManagedObject, [String: ManagedObject]) {
        let c = Context(store: try Store(inMemoryWith: Fixtures.rulesGraph))
        let owner = try c.insert("Owner")
        owner["name"] = .string("\(tag):owner")
        var pets: [String: ManagedObject] = [:]
        for rel in ["cascaded", "nullified", "denied", "ignored"] {
            let pet = try c.insert("Pet")
            pet["name"] = .string("\(tag):\(rel)")
            owner.add(pet, to: rel)
            let toy = try c.insert("Toy")
            toy["name"] = .string("\(tag):\(rel)-toy")
            pet.add(toy, to: "toys")
            pets[rel] = pet
        }
        try c.save()
        return (c, owner, pets)
    }

    @Test func cascadeDeletesAndHooksKnowTheCascade() throws {
        let (c, owner, pets) = try world("cascade")
        owner.remove(pets["denied"]!, from: "denied")
        owner.remove(pets["ignored"]!, from: "ignored")
        c.delete(owner)
        #expect(DeleteLog.shared.take("cascade") == ["cascade:owner", "cascade:cascaded (cascade)", "cascade:cascaded-toy (cascade)"])
        #expect(pets["cascaded"]!.isDeleted)
        #expect(!pets["nullified"]!.isDeleted)
        #expect(pets["nullified"]!.object("nullifyOwner") == nil)
        try c.save()
        #expect(try c.count(FetchRequest("Pet")) == 3)
        #expect(try c.count(FetchRequest("Toy")) == 3)
        #expect(try c.count(FetchRequest("Owner")) == 0)
    }

    @Test func hookRunsOutsideACascade() throws {
        let (c, _, pets) = try world("direct")
        c.delete(pets["nullified"]!)
        #expect(DeleteLog.shared.take("direct") == ["direct:nullified", "direct:nullified-toy (cascade)"])
        try c.save()
    }

    @Test func denyFailsTheSaveNamingObjectAndRelationship() throws {
        let (c, owner, pets) = try world("deny")
        owner.remove(pets["ignored"]!, from: "ignored")
        c.delete(owner)
        _ = DeleteLog.shared.take("deny")
        let errors = validationErrors { try c.save() }
        #expect(errors == ["Owner \(owner.objectID) cannot be deleted: its relationship denied still has 1 object(s) (deny rule)"])
        #expect(c.hasChanges)
        // Nothing was written.
        let fresh = Context(store: c.store)
        #expect(try fresh.count(FetchRequest("Owner")) == 1)
        #expect(try fresh.count(FetchRequest("Pet")) == 4)
        c.rollback()
        #expect(!owner.isDeleted)
        #expect(!pets["cascaded"]!.isDeleted)
        #expect(owner.count("nullified") == 1)
    }

    @Test func noActionLeavesAReferenceTheStoreRefuses() throws {
        let (c, owner, pets) = try world("noaction")
        owner.remove(pets["denied"]!, from: "denied")
        c.delete(owner)
        _ = DeleteLog.shared.take("noaction")
        #expect(pets["ignored"]!.object("noActionOwner")?.objectID == owner.objectID)
        let e = storeError { try c.save() }
        #expect(e?.code == .foreignKey)
        #expect(e?.entity == "Owner")
        #expect(e?.property == "ignored")
        #expect(e?.message.contains("is still referred to by Pet") == true)
        // Fixing the reference in the same unit of work lets it save.
        pets["ignored"]!.setObject(nil, for: "noActionOwner")
        try c.save()
        #expect(try c.count(FetchRequest("Owner")) == 0)
    }

    @Test func deletingAnUnsavedObjectForgetsIt() throws {
        let c = Context(store: try Store(inMemoryWith: Fixtures.rulesGraph))
        let owner = try c.insert("Owner")
        let pet = try c.insert("Pet")
        owner.add(pet, to: "cascaded")
        c.delete(owner)
        #expect(pet.isDeleted)
        try c.save()
        #expect(try c.count(FetchRequest("Pet")) == 0)
    }
}
