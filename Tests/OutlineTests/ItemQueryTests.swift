import ObjectGraph
import Testing

@testable import Outline

/// Queries read as filters and text; each filter is a condition on stored items, so a query fetched from the
/// store and the same query evaluated on objects agree.
@Suite struct ItemQueryTests {
    static let today = "2026-11-29"

    @Test func wordsFiltersAndPhrases() throws {
        let q = try ItemQuery(#"state:todo #work due:<7d "call bob" 10:30 http://x"#, today: Self.today)
        #expect(q.hasFilters)
        #expect(q.text == ["call bob", "10:30", "http://x"])
        #expect(
            q.filters
                == .and([
                    Property("state").oneOf(["TODO"]), ItemQuery.tagged("work"), Property("deadline") < "2026-12-06"
                ]))
        #expect(try !ItemQuery("milk bread", today: Self.today).hasFilters)
        #expect(try ItemQuery("is: state:", today: Self.today).text == ["is:", "state:"], "a key alone is text")
        #expect(try ItemQuery("due:fri", today: Self.today).filters == (Property("deadline") >= "2026-12-04" && Property("deadline") < "2026-12-05"))
        #expect(try ItemQuery("sched:<=today", today: Self.today).filters == (Property("scheduled") < "2026-11-30"))
        #expect(try ItemQuery("due:>2026-12-01", today: Self.today).filters == (Property("deadline") >= "2026-12-02"))
    }

    @Test(arguments: ["due:someday", "pri:AB", "is:maybe", "tag:a:b", "state:,"])
    func aFilterThatCannotBeReadIsRefused(query: String) {
        #expect(throws: ItemQuery.Problem.self) { try ItemQuery(query, today: Self.today) }
    }

    /// Each query's items, as the store fetches them, are those the same condition picks from the objects.
    @Test func theStoreAndTheObjectsAgree() throws {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let top = try o.root().objectID
        let lines = [
            "TODO Call Bob #work !A due:2026-12-01", "TODO Write report #work due:2026-12-09 sched:2026-11-29",
            "DONE Ship it #work", "Call mum #home", "NEXT Plan #[[big project]] !B", "Plain item"
        ]
        try o.perform { for line in lines { try o.append(captured: line, to: top, today: Self.today) } }
        let queries = [
            "state:TODO", "state:none", "state:any", "#work", "tag:home", "pri:A", "pri:none", "due:<7d", "due:any", "due:none",
            "sched:today", "is:done", "is:open", "is:task", "call", "state:TODO #work due:<=2026-12-09", #"tag:"big project""#
        ]
        let all = try o.children(of: try o.root())
        var matched = 0
        for text in queries {
            let q = try ItemQuery(text, today: Self.today)
            let fetched = Set(try o.context.fetch(FetchRequest(Item.entityName, where: q.predicate)).map(\.objectID))
            let evaluated = Set(all.filter { q.predicate.evaluate($0) }.map(\.objectID))
            #expect(fetched.subtracting([top]) == evaluated, "\(text)")
            matched += evaluated.count
        }
        #expect(matched > 20)
        #expect(try o.items(matching: ItemQuery("#work call", today: Self.today)).count == 1)
    }

    /// A view's text (the predicate) finds what `burrow find` (the full-text index) finds: case and
    /// diacritics folded, in titles and notes.
    @Test func aViewFindsTheTextFindFinds() throws {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let top = try o.root().objectID
        try o.perform {
            _ = try o.append(titles: ["Café au lait", "CAFE", "Gödel, Escher", "Straße", "plain"], to: top)
            let plain = try #require(try o.children(of: try o.root()).last)
            plain.note = "Ein Lied von GÖDEL"
        }
        for text in ["cafe", "godel", "STRASSE", "café lait", #""au lait""#, "zzz"] {
            let q = try ItemQuery(text, today: Self.today)
            let viewed = Set(try o.context.fetch(FetchRequest(Item.entityName, where: q.predicate)).map(\.objectID)).subtracting([top])
            #expect(viewed == Set(try o.items(matching: q)), "\(text)")
        }
        #expect(try o.context.fetch(FetchRequest(Item.entityName, where: try ItemQuery("godel", today: Self.today).predicate)).count == 2)
    }
}
