import Foundation

/// What a quick-capture line asks for beyond its title: `TODO Call Bob !A due:fri sched:tomorrow 9:00` is the
/// task "Call Bob", state TODO, priority A, due Friday, planned for tomorrow at nine. Words that are not such
/// tokens (and tokens that do not read, `due:someday`) stay in the title, so nothing typed is lost.
///
/// For example: `CaptureLine("Pay rent due:2026-12-01 !B", today: "2026-11-29").extras` is priority B, deadline 2026-12-01.
public struct CaptureLine: Equatable, Sendable {
    /// The title: the line less the tokens taken.
    public let title: String
    /// What the tokens set (nil when the line had none).
    public let extras: OutlineNode.Extras?
    /// The day the line's days were read against.
    public let today: String

    /// Reads `line`: a state of `workflow` as its first word, `!A` (one letter) for a priority, `#work` and
    /// `#[[two words]]` for tags, `due:DATE` and `sched:DATE` (optionally followed by a time, `9:00`). DATE is
    /// `today`, `tomorrow`, a weekday (`fri`, `friday`: the coming one, today included), `+3d` / `+2w` from
    /// today, or `2026-12-01`.
    public init(_ line: String, today: String, workflow: Workflow = .standard) {
        var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        var extras = OutlineNode.Extras()
        if let first = words.first, workflow.states.contains(first), words.count > 1 {
            extras.state = first
            words.removeFirst()
        }
        var kept: [String] = []
        var k = 0
        while k < words.count {
            let word = words[k]
            k += 1
            if word.count == 2, word.first == "!", let p = word.last, p.isASCII, p.isLetter {
                extras.priority = p.uppercased()
                continue
            }
            // `#[[multi word]]`, as Logseq writes a tag of several words: the words up to the closing `]]`.
            if word.hasPrefix("#[["), let end = words[(k - 1)...].firstIndex(where: { $0.hasSuffix("]]") }) {
                let tag = words[(k - 1)...end].joined(separator: " ").dropFirst(3).dropLast(2)
                if Tag.problem(with: String(tag)) == nil && !tag.contains("]]") && !tag.contains("[[") {
                    if !extras.tags.contains(String(tag)) { extras.tags.append(String(tag)) }
                    k = end + 1
                    continue
                }
            }
            if let tag = Self.tag(word) {
                if !extras.tags.contains(tag) { extras.tags.append(tag) }
                continue
            }
            var taken = false
            for (prefix, isDeadline) in [("due:", true), ("sched:", false)] where word.lowercased().hasPrefix(prefix) {
                guard var date = Self.day(String(word.dropFirst(prefix.count)), today: today) else { break }
                // A time may follow as the next word.
                if k < words.count, let time = Self.time(words[k]) {
                    date += " " + time
                    k += 1
                }
                if isDeadline { extras.deadline = date } else { extras.scheduled = date }
                taken = true
            }
            if !taken { kept.append(word) }
        }
        self.today = today
        // Only the spaces the tokens stood between go with them.
        let rest = Self.trimmingSpaces(kept.joined(separator: " "))
        // A line without tokens, or of tokens alone, is a title exactly as typed: nothing typed is lost.
        if extras.isEmpty || rest.isEmpty {
            title = line
            self.extras = nil
        } else {
            title = rest
            self.extras = extras
        }
    }

    /// `text` without the space scalars at either end, as `trimmingCharacters(in: CharacterSet(charactersIn: " "))`
    /// gives it (a space before a combining mark goes too) without NSString, which a quick command would load
    /// for this alone.
    static func trimmingSpaces(_ text: String) -> String {
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, scalars[start] == " " { start = scalars.index(after: start) }
        while end > start, scalars[scalars.index(before: end)] == " " { end = scalars.index(before: end) }
        return String(scalars[start..<end])
    }

    /// What the line took, for the capture line's hint: "TODO · priority A · due 2026-12-04"; nil when nothing.
    public var summary: String? {
        guard let e = extras else { return nil }
        var parts: [String] = []
        if let s = e.state { parts.append(s) }
        if let p = e.priority { parts.append("priority " + p) }
        parts += e.tags.map { "#" + $0 }
        if let s = e.scheduled { parts.append("planned " + s) }
        if let d = e.deadline { parts.append("due " + d) }
        return parts.joined(separator: " · ")
    }

    /// The tag of a `#work` word: `#` then a letter (`#1` is an issue number, `# ` a heading), the rest a
    /// tag can hold.
    public static func tag(_ word: String) -> String? {
        guard word.first == "#", word.count > 1 else { return nil }
        let tag = String(word.dropFirst())
        guard let lead = tag.first, !tag.contains("#"), Tag.problem(with: tag) == nil else { return nil }
        // A letter of any script, `_`, `@`, an emoji (Logseq's `#📑READ`), or `.` then a letter (Logseq's
        // `#.ol`); not a digit: `#123` is an issue's number.
        let second = tag.dropFirst().first
        // An emoji as drawn by default (`📑`, not `€`, `©` or `°`, which stay text).
        let emoji = lead.unicodeScalars.first?.properties.isEmojiPresentation ?? false
        guard lead.isLetter || lead == "_" || lead == "@" || emoji || (lead == "." && second?.isLetter == true) else { return nil }
        // `(see #work)`, `#done.`: the punctuation closes the sentence, and the word is no tag (a tag that
        // ends so is written `#[[work)]]`).
        if let last = tag.last, ",.;:!?)\"'(]".contains(last) { return nil }
        return tag
    }

    /// `2026-12-01` for a day word, relative to `today` (`2026-11-29`).
    static func day(_ word: String, today: String) -> String? {
        let w = word.lowercased()
        guard let base = Day(today) else { return nil }
        switch w {
        case "today": return base.text
        case "tomorrow", "tmr": return base.adding(days: 1).text
        default: break
        }
        if let kept = OrgTimestamp.kept(Array(w.utf8)), kept.count == 10 { return kept }
        if w.first == "+", let unit = w.last, let n = Int(w.dropFirst().dropLast()), n >= 0, n < 10_000 {
            switch unit {
            case "d": return base.adding(days: n).text
            case "w": return base.adding(days: 7 * n).text
            default: return nil
            }
        }
        let names = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
        let full = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        guard let target = names.firstIndex(of: w) ?? full.firstIndex(of: w) else { return nil }
        return base.adding(days: (target - base.weekday + 7) % 7).text
    }

    /// `09:00` for `9:00` or `09:00`.
    static func time(_ word: String) -> String? {
        let parts = word.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2, let h = Int(parts[0]), let m = Int(parts[1]), h < 24, m < 60
        else { return nil }
        return (h < 10 ? "0" : "") + "\(h):" + parts[1]
    }

    /// A calendar day as days since 1970-01-01 (civil-from-days, proleptic Gregorian): no time zone in it.
    struct Day {
        let days: Int

        init?(_ text: String) {
            let p = text.split(separator: "-")
            guard text.count == 10, p.count == 3, let y = Int(p[0]), let m = Int(p[1]), let d = Int(p[2]) else { return nil }
            // Howard Hinnant's days_from_civil.
            let yy = m <= 2 ? y - 1 : y
            let era = (yy >= 0 ? yy : yy - 399) / 400
            let yoe = yy - era * 400
            let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
            let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
            days = era * 146_097 + doe - 719_468
        }

        /// The day `days` after 1970-01-01.
        init(days: Int) { self.days = days }

        func adding(days n: Int) -> Day { Day(days: days + n) }

        /// 0 for Sunday.
        var weekday: Int { ((days % 7) + 11) % 7 }

        var text: String {
            let z = days + 719_468
            let era = (z >= 0 ? z : z - 146_096) / 146_097
            let doe = z - era * 146_097
            let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
            let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
            let mp = (5 * doy + 2) / 153
            let d = doy - (153 * mp + 2) / 5 + 1
            let m = mp < 10 ? mp + 3 : mp - 9
            let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            let year = String(y)
            return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-\(two(m))-\(two(d))"
        }
    }
}
