/// Org's timestamps (`<2026-05-01 Fri 09:00 +1w -2d>`) and the text Burrow keeps them as: the same without
/// the brackets and the day's name, the time in two digits (`2026-05-01 09:00 +1w -2d`), so that timestamps
/// sort as text in time order, and a view can find "before the 8th" with a comparison.
enum OrgTimestamp {
    /// The kept text of a timestamp's inside (between `<>` or `[]`), or nil when it is not one: a real date,
    /// then optionally a day's name (any word: Emacs writes it in the user's language), a time or a time
    /// range, a repeater (`+1w`, `++1m`, `.+2d`, with a habit's `/3d`) and a warning (`-2d`, `--1w`).
    static func kept(_ inside: some Collection<UInt8>) -> String? {
        let tokens = inside.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 }).map { Array($0) }
        guard let first = tokens.first, let date = date(first) else { return nil }
        var out = date
        var k = 1
        if k < tokens.count, let c = tokens[k].first, !isDigit(c), c != UInt8(ascii: "+"), c != UInt8(ascii: "-"), c != UInt8(ascii: ".") {
            k += 1
        }
        if k < tokens.count, let time = time(tokens[k]) {
            out += " " + time
            k += 1
        }
        var repeater: String?
        var warning: String?
        while k < tokens.count {
            let t = tokens[k]
            if repeater == nil, isRepeater(t) {
                repeater = String(decoding: t, as: UTF8.self)
            } else if warning == nil, isWarning(t) {
                warning = String(decoding: t, as: UTF8.self)
            } else {
                return nil
            }
            k += 1
        }
        if let repeater { out += " " + repeater }
        if let warning { out += " " + warning }
        return out
    }

    /// The inside of the timestamp `kept` stands for, with the day's English name Emacs writes by default.
    static func inside(_ kept: String) -> String {
        var parts = kept.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard let day = parts.first.flatMap(dayName) else { return kept }
        parts.insert(day, at: 1)
        return parts.joined(separator: " ")
    }

    /// `YYYY-MM-DD` when `token` is a date that exists.
    private static func date(_ token: [UInt8]) -> String? {
        guard token.count == 10, token[4] == UInt8(ascii: "-"), token[7] == UInt8(ascii: "-"),
            let year = number(token[0..<4]), let month = number(token[5..<7]), let day = number(token[8..<10]),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        return String(decoding: token, as: UTF8.self)
    }

    /// `HH:MM` or `HH:MM-HH:MM` (hours given with one digit get two) when `token` is a time or range.
    private static func time(_ token: [UInt8]) -> String? {
        let halves = token.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard halves.count <= 2 else { return nil }
        var out: [String] = []
        for half in halves {
            let parts = half.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
            guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
                let hour = number(parts[0]), let minute = number(parts[1]), hour <= 24, minute <= 59
            else { return nil }
            out.append((hour < 10 ? "0" : "") + "\(hour):" + String(decoding: parts[1], as: UTF8.self))
        }
        return out.joined(separator: "-")
    }

    /// `+1w`, `++1m`, `.+2d`, optionally with a habit's `/3d`.
    private static func isRepeater(_ t: [UInt8]) -> Bool {
        var rest = t[...]
        if rest.starts(with: Array("++".utf8)) || rest.starts(with: Array(".+".utf8)) {
            rest = rest.dropFirst(2)
        } else if rest.first == UInt8(ascii: "+") {
            rest = rest.dropFirst()
        } else {
            return false
        }
        let parts = rest.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        return (1...2).contains(parts.count) && parts.allSatisfy(isInterval)
    }

    /// `-2d` or `--1w`.
    private static func isWarning(_ t: [UInt8]) -> Bool {
        var rest = t[...]
        guard rest.first == UInt8(ascii: "-") else { return false }
        rest = rest.dropFirst()
        if rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
        return isInterval(rest)
    }

    /// A number and a unit: `3d`.
    private static func isInterval(_ t: ArraySlice<UInt8>) -> Bool {
        guard t.count >= 2, let unit = t.last, "hdwmy".utf8.contains(unit) else { return false }
        return t.dropLast().allSatisfy(isDigit)
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    private static func number(_ digits: some Collection<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.allSatisfy(isDigit) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The English abbreviation of the weekday of `YYYY-MM-DD` (Sakamoto's method, proleptic Gregorian).
    static func dayName(_ date: String) -> String? {
        guard let kept = self.date(Array(date.utf8)) else { return nil }
        let bytes = Array(kept.utf8)
        var y = number(bytes[0..<4])!
        let m = number(bytes[5..<7])!, d = number(bytes[8..<10])!
        let offsets = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4]
        if m < 3 { y -= 1 }
        let weekday = (y + y / 4 - y / 100 + y / 400 + offsets[m - 1] + d) % 7
        return ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][weekday]
    }
}
