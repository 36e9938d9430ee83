import ObjectGraph

/// A search of items by what they are and say: `state:TODO tag:work due:<7d "call bob"`. Filters (all must
/// hold) are `state:TODO` (`state:TODO,NEXT`, `state:none`, `state:any`), `tag:work` or `#work`, `pri:A`
/// (`pri:none`), `due:` and `sched:` with a day (`today`, `tomorrow`, `fri`, `+3d`, `7d`, `2026-12-01`, `any`,
/// `none`) after `<`, `<=`, `>`, `>=` or nothing (that day), and `is:done`, `is:open`, `is:task`; every other
/// word, and each `"quoted phrase"`, is text the title or note must contain.
///
/// For example: `try ItemQuery("state:TODO due:<7d #work", today: "2026-11-29").predicate` matches the TODO
/// tasks tagged work that are due before 2026-12-06.
public struct ItemQuery: Equatable, Sendable {
    /// The words and phrases to find (each in the title or the note), in order.
    public let text: [String]
    /// The filters, as a condition on items (`true` when there are none).
    public let filters: ObjectPredicate
    /// True when the query has filters beyond text.
    public let hasFilters: Bool
    /// The query as typed.
    public let source: String
    /// The tags it asks for (`#work`, `tag:work`), and the one state it asks for if it names one: what an
    /// item added while its view is shown is given, so that it shows there.
    public let tags: [String]
    public let state: String?

    /// A filter the query cannot read: what was typed and what it takes.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public let word: String
        public let expected: String
        public var description: String { "“\(word)”: \(expected)" }
    }

    /// Reads `query`, its days against `today` (`2026-11-29`) and its states against `workflow`.
    public init(_ query: String, today: String, workflow: Workflow = .standard) throws(Problem) {
        source = query
        var text: [String] = []
        var filters: [ObjectPredicate] = []
        var tags: [String] = []
        var states: [String] = []
        for word in Self.words(query) {
            if word.quoted {
                text.append(word.text)
                continue
            }
            let w = word.text
            if w.count > 1, w.first == "#", let tag = CaptureLine.tag(w) {
                filters.append(Self.tagged(tag))
                tags.append(tag)
                continue
            }
            guard let colon = w.firstIndex(of: ":"), colon != w.startIndex else {
                text.append(w)
                continue
            }
            let key = w[..<colon].lowercased()
            let value = String(w[w.index(after: colon)...])
            // `is:` or `note:` alone is a word to find, as it always was.
            if value.isEmpty {
                text.append(w)
                continue
            }
            switch key {
            case "state":
                filters.append(try Self.state(value, word: w, workflow: workflow))
                states += value.split(separator: ",").map { s in workflow.states.first { $0.lowercased() == s.lowercased() } ?? String(s) }
            case "tag":
                let name = value.hasPrefix("#") ? String(value.dropFirst()) : value
                guard Tag.problem(with: name) == nil else { throw Problem(word: w, expected: "tag: takes a tag's name (tag:work)") }
                filters.append(Self.tagged(name))
                tags.append(name)
            case "pri", "priority":
                if value.lowercased() == "none" {
                    filters.append(Property("priority").isNil)
                } else {
                    guard value.count == 1, let c = value.first, c.isASCII, c.isLetter else {
                        throw Problem(word: w, expected: "pri: takes one letter (pri:A) or none")
                    }
                    filters.append(Property("priority") == value.uppercased())
                }
            case "due", "deadline", "sched", "scheduled":
                let attribute = key.hasPrefix("d") ? "deadline" : "scheduled"
                filters.append(try Self.day(value, attribute: attribute, word: w, today: today))
            case "is":
                switch value.lowercased() {
                case "done": filters.append(Property("done") == true)
                case "open", "todo": filters.append(Property("done") == false && !Property("state").isNil)
                case "task": filters.append(!Property("state").isNil)
                default: throw Problem(word: w, expected: "is: takes done, open or task")
                }
            default:
                // `10:30`, `http://…`: text.
                text.append(w)
            }
        }
        self.text = text
        self.tags = tags
        state = states.count == 1 && !["none", "any"].contains(states[0].lowercased()) ? states[0] : nil
        hasFilters = !filters.isEmpty
        self.filters = filters.isEmpty ? .true : filters.count == 1 ? filters[0] : .and(filters)
    }

    /// The filters and the text (each word in the title or the note, compared as `burrow find` and `/`
    /// compare: case and diacritics folded, “cafe” in “Café”), as one condition: what a live view fetches.
    public var predicate: ObjectPredicate {
        var all = hasFilters ? [filters] : []
        for t in text { all.append(Property("title").containsFolded(t) || Property("note").containsFolded(t)) }
        return all.isEmpty ? .true : all.count == 1 ? all[0] : .and(all)
    }

    /// Items tagged `name`: through the index of tagged items' lists (the condition says the list is there, so
    /// only those are read).
    static func tagged(_ name: String) -> ObjectPredicate {
        !Property("tagList").isNil && Property("tagList").contains(":" + name + ":")
    }

    private static func state(_ value: String, word: String, workflow: Workflow) throws(Problem) -> ObjectPredicate {
        switch value.lowercased() {
        case "none": return Property("state").isNil
        case "any": return !Property("state").isNil
        default: break
        }
        var states: [String] = []
        for part in value.split(separator: ",") {
            let s = String(part)
            // The outline's own spelling of a state, whatever case was typed.
            states.append(workflow.states.first { $0.lowercased() == s.lowercased() } ?? s)
        }
        guard !states.isEmpty else { throw Problem(word: word, expected: "state: takes a state (state:TODO, state:TODO,NEXT), none or any") }
        return Property("state").oneOf(states)
    }

    /// `<7d`, `<=fri`, `today`, `>2026-12-01`, `any`, `none` as a condition on `attribute` (timestamps kept as
    /// `2026-05-01 09:00 +1w` sort as text, so a day's bounds are text bounds).
    private static func day(_ value: String, attribute: String, word: String, today: String) throws(Problem) -> ObjectPredicate {
        let p = Property(attribute)
        switch value.lowercased() {
        case "any": return !p.isNil
        case "none": return p.isNil
        default: break
        }
        var rest = Substring(value)
        var op = "="
        for candidate in ["<=", ">=", "<", ">", "="] where rest.hasPrefix(candidate) {
            op = candidate
            rest = rest.dropFirst(candidate.count)
            break
        }
        // `7d`, `2w`: that many days or weeks from today.
        var dayWord = String(rest)
        if let unit = dayWord.last, unit == "d" || unit == "w", Int(dayWord.dropLast()) != nil { dayWord = "+" + dayWord }
        guard let day = CaptureLine.day(dayWord, today: today), let next = CaptureLine.Day(day)?.adding(days: 1).text else {
            throw Problem(
                word: word,
                expected:
                    "\(attribute == "deadline" ? "due" : "sched"): takes a day (today, fri, +3d, 7d, 2026-12-01) after <, <=, >, >= or nothing; or any, none"
            )
        }
        switch op {
        case "<": return p < day
        case "<=": return p < next
        case ">": return p >= next
        case ">=": return p >= day
        default: return p >= day && p < next
        }
    }

    /// The query's words: blanks separate them; quotes hold blanks in, a word that starts with one is a
    /// phrase (`"call bob"`), one inside a word keeps it a word (`tag:"big project"`); an unclosed quote runs to
    /// the end.
    static func words(_ query: String) -> [(text: String, quoted: Bool)] {
        var out: [(String, Bool)] = []
        var current = ""
        var inQuotes = false
        var phrase = false
        for c in query {
            if c == "\"" {
                if !inQuotes && current.isEmpty { phrase = true }
                inQuotes.toggle()
                continue
            }
            if !inQuotes && (c == " " || c == "\t") {
                if !current.isEmpty { out.append((current, phrase)) }
                current = ""
                phrase = false
                continue
            }
            current.append(c)
        }
        if !current.isEmpty { out.append((current, phrase)) }
        return out
    }
}
