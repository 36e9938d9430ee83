/// The HTML in OPML's `text` and `_note` attributes, which the OPML 2.0 spec allows and Workflowy writes:
/// bold, italic, links and the rest escaped inside the attribute, and a `<` the user typed escaped once more
/// (`&amp;lt;`). Burrow's titles and notes are Markdown source (its Markdown reader keeps `**bold**` as
/// written), so that markup becomes Markdown: `<b>x</b>` is `**x**`, `<a href="u">x</a>` is `[x](u)`.
/// Anything that is not markup Workflowy writes (an unknown tag, a tag never closed, an unknown entity)
/// is kept as the text it is. FORMATS.md lists each tag.
enum OPMLMarkup {
    /// The Markdown source for an attribute value read as HTML.
    ///
    /// ```swift
    /// OPMLMarkup.markdown(fromHTML: "<b>Plan</b> &amp; <a href=\"https://x.org\">site</a>")  // "**Plan** & [site](https://x.org)"
    /// ```
    static func markdown(fromHTML html: String) -> String {
        // Without '<' or '&' there is neither a tag nor an entity: most titles.
        guard html.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) else { return html }
        var conversion = Conversion(Array(html.utf8))
        return conversion.run()
    }

    /// What a tag Workflowy writes becomes.
    enum Kind {
        case bold, italic, strikethrough, code, link
        /// Underline, colour and highlight: Markdown has none, the text stays.
        case plain
        /// A date: its text as Workflowy shows it, or the date its attributes give when it has none.
        case time
        /// A person, named only by a number Workflowy's own accounts resolve.
        case mention
        case lineBreak

        init?(name: String) {
            switch name {
            case "b", "strong": self = .bold
            case "i", "em": self = .italic
            case "s", "strike", "del": self = .strikethrough
            case "code": self = .code
            case "a": self = .link
            case "u", "ins", "mark", "span", "font": self = .plain
            case "time": self = .time
            case "mention": self = .mention
            case "br": self = .lineBreak
            default: return nil
            }
        }
    }

    /// A tag as read: its name in lower case, its attributes (names in lower case, values decoded).
    struct Tag {
        let name: String
        let closing: Bool
        let selfClosing: Bool
        let attributes: [String: String]
        /// Just after its `>`.
        let end: Int
    }

    /// An element whose end tag has not come yet.
    struct OpenElement {
        let tag: Tag
        let kind: Kind
        /// Where its content starts in the output.
        let start: Int
        /// Its start tag in the input, written back as text if it is never closed.
        let raw: Range<Int>
    }

    struct Conversion {
        let input: [UInt8]
        var i = 0
        var out: [UInt8] = []
        var open: [OpenElement] = []

        init(_ input: [UInt8]) {
            self.input = input
            out.reserveCapacity(input.count)
        }

        mutating func run() -> String {
            while i < input.count {
                let b = input[i]
                if b == UInt8(ascii: "<"), let tag = tag(at: i), let kind = Kind(name: tag.name) {
                    let raw = i..<tag.end
                    i = tag.end
                    if kind == .lineBreak {
                        if !tag.closing { out.append(0x0A) }
                    } else if tag.closing {
                        close(tag.name, raw: raw)
                    } else if open.count >= Self.deepest {
                        // Deeper than any real markup: text, so that closing stays a short search.
                        out += input[raw]
                    } else {
                        open.append(OpenElement(tag: tag, kind: kind, start: out.count, raw: raw))
                        if tag.selfClosing { close(tag.name, raw: raw) }
                    }
                } else if b == UInt8(ascii: "&"), let (scalar, end) = entity(at: i) {
                    UTF8.encode(scalar) { out.append($0) }
                    i = end
                } else {
                    out.append(b)
                    i += 1
                }
            }
            writeBack(open[...])
            return String(decoding: out, as: UTF8.self)
        }

        /// Ends the innermost open element named `name` (those opened inside it and never closed are text),
        /// or keeps the end tag as text when none is open.
        private mutating func close(_ name: String, raw: Range<Int>) {
            guard let k = open.lastIndex(where: { $0.tag.name == name }) else {
                out += input[raw]
                return
            }
            writeBack(open[(k + 1)...])
            open.removeSubrange((k + 1)...)
            let element = open.removeLast()
            let content = Array(out[element.start...])
            out.removeSubrange(element.start...)
            out += Self.markdown(of: element, content: content)
        }

        /// The most elements open at once; a start tag deeper is text.
        static let deepest = 256

        /// Puts back the start tags of elements never closed, as the text they were: the output after the
        /// first of them made again once (inserting each would move the rest each time).
        private mutating func writeBack(_ elements: ArraySlice<OpenElement>) {
            guard let first = elements.first else { return }
            var rebuilt: [UInt8] = []
            rebuilt.reserveCapacity(out.count - first.start + elements.reduce(0) { $0 + $1.raw.count })
            for (k, element) in zip(elements.indices, elements) {
                let next = k + 1 < elements.endIndex ? elements[k + 1].start : out.count
                rebuilt += input[element.raw]
                rebuilt += out[element.start..<next]
            }
            out.replaceSubrange(first.start..., with: rebuilt)
        }

        private static func markdown(of element: OpenElement, content: [UInt8]) -> [UInt8] {
            switch element.kind {
            case .bold: return wrap(content, in: Array("**".utf8))
            case .italic: return wrap(content, in: Array("*".utf8))
            case .strikethrough: return wrap(content, in: Array("~~".utf8))
            case .code: return codeSpan(content)
            case .link: return link(content, to: element.tag.attributes["href"])
            case .plain, .lineBreak: return content
            case .time:
                guard content.allSatisfy(isSpace), let date = date(element.tag.attributes) else { return content }
                return Array(date.utf8)
            case .mention:
                guard content.allSatisfy(isSpace), let id = element.tag.attributes["id"], !id.isEmpty else { return content }
                return Array("@\(id)".utf8)
            }
        }

        /// `marker` on both sides of the content, white space at its ends left outside (`** x**` is no emphasis).
        private static func wrap(_ content: [UInt8], in marker: [UInt8]) -> [UInt8] {
            guard let first = content.firstIndex(where: { !isSpace($0) }), let last = content.lastIndex(where: { !isSpace($0) }) else {
                return content
            }
            return Array(content[..<first]) + marker + content[first...last] + marker + content[(last + 1)...]
        }

        /// A code span whose backtick fence is longer than any run of backticks in it.
        private static func codeSpan(_ content: [UInt8]) -> [UInt8] {
            guard !content.isEmpty else { return content }
            var longest = 0
            var run = 0
            for b in content {
                run = b == UInt8(ascii: "`") ? run + 1 : 0
                longest = max(longest, run)
            }
            let fence = [UInt8](repeating: UInt8(ascii: "`"), count: longest + 1)
            // CommonMark takes one space off each end of a span that has one at both: pad to keep them.
            let pads =
                content.first == UInt8(ascii: "`") || content.last == UInt8(ascii: "`")
                || (isSpace(content.first!) && isSpace(content.last!) && !content.allSatisfy(isSpace))
            let pad: [UInt8] = pads ? [0x20] : []
            return fence + pad + content + pad + fence
        }

        /// `[label](href)`, or the address alone when the label is the address (Workflowy links every URL typed).
        private static func link(_ content: [UInt8], to href: String?) -> [UInt8] {
            guard let href, !href.isEmpty else { return content }
            let address = Array(href.utf8)
            guard let first = content.firstIndex(where: { !isSpace($0) }), let last = content.lastIndex(where: { !isSpace($0) }) else {
                return content + address
            }
            let label = content[first...last]
            if label.elementsEqual(address) { return content }
            var out = Array(content[..<first])
            out.append(UInt8(ascii: "["))
            for b in label {
                if b == UInt8(ascii: "[") || b == UInt8(ascii: "]") { out.append(UInt8(ascii: "\\")) }
                out.append(b)
            }
            out += Array("](".utf8)
            // A destination with spaces, parentheses or angle brackets goes in <…>, which may hold all but '<' '>'.
            if address.contains(where: {
                $0 <= 0x20 || $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: ")") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">")
            }) {
                out.append(UInt8(ascii: "<"))
                for b in address {
                    switch b {
                    case UInt8(ascii: "<"): out += Array("%3C".utf8)
                    case UInt8(ascii: ">"): out += Array("%3E".utf8)
                    case 0x0A: out += Array("%0A".utf8)
                    default: out.append(b)
                    }
                }
                out.append(UInt8(ascii: ">"))
            } else {
                out += address
            }
            out.append(UInt8(ascii: ")"))
            out += content[(last + 1)...]
            return out
        }

        /// `2026-07-08`, or `2026-07-08 13:00` with an hour, from a `<time>`'s `startYear`, `startMonth`, …
        private static func date(_ attributes: [String: String]) -> String? {
            func number(_ name: String) -> Int? { attributes[name].flatMap { Int($0) } }
            guard let year = number("startyear"), let month = number("startmonth"), let day = number("startday") else { return nil }
            func two(_ n: Int) -> String { n < 10 && n >= 0 ? "0\(n)" : "\(n)" }
            var text = "\(year)-\(two(month))-\(two(day))"
            if let hour = number("starthour") { text += " \(two(hour)):\(two(number("startminute") ?? 0))" }
            return text
        }

        static func isSpace(_ b: UInt8) -> Bool {
            b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C
        }

        private static func isNameByte(_ b: UInt8) -> Bool {
            let letter = (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z")
            return letter || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-")
        }

        /// The tag at `start` (a `<`), or nil when what follows is not one (`a < b`, `<3`): then it is text.
        private func tag(at start: Int) -> Tag? {
            let p = input
            var j = start + 1
            let closing = j < p.count && p[j] == UInt8(ascii: "/")
            if closing { j += 1 }
            guard j < p.count, (p[j] | 0x20) >= UInt8(ascii: "a"), (p[j] | 0x20) <= UInt8(ascii: "z") else { return nil }
            let nameStart = j
            while j < p.count && Self.isNameByte(p[j]) { j += 1 }
            // No tag Workflowy writes is long, and none holds a '<' (its values escape it): a tag that would
            // reach the next '<' is text, so every byte is looked at a bounded number of times.
            guard j - nameStart <= 16 else { return nil }
            let name = String(decoding: p[nameStart..<j], as: UTF8.self).lowercased()
            var attributes: [String: String] = [:]
            while true {
                let before = j
                while j < p.count && Self.isSpace(p[j]) { j += 1 }
                guard j < p.count, p[j] != UInt8(ascii: "<") else { return nil }
                if p[j] == UInt8(ascii: ">") {
                    return Tag(name: name, closing: closing, selfClosing: false, attributes: attributes, end: j + 1)
                }
                if p[j] == UInt8(ascii: "/"), j + 1 < p.count, p[j + 1] == UInt8(ascii: ">") {
                    return Tag(name: name, closing: closing, selfClosing: true, attributes: attributes, end: j + 2)
                }
                // Attributes are separated from the name and from each other by white space.
                guard j > before else { return nil }
                let attributeStart = j
                while j < p.count && !Self.isSpace(p[j]) && p[j] != UInt8(ascii: "=") && p[j] != UInt8(ascii: ">")
                    && p[j] != UInt8(ascii: "/") && p[j] != UInt8(ascii: "\"") && p[j] != UInt8(ascii: "'") && p[j] != UInt8(ascii: "<")
                {
                    j += 1
                }
                guard j > attributeStart else { return nil }
                let attribute = String(decoding: p[attributeStart..<j], as: UTF8.self).lowercased()
                while j < p.count && Self.isSpace(p[j]) { j += 1 }
                guard j < p.count, p[j] == UInt8(ascii: "=") else {
                    attributes[attribute] = ""
                    continue
                }
                j += 1
                while j < p.count && Self.isSpace(p[j]) { j += 1 }
                guard j < p.count, p[j] != UInt8(ascii: "<") else { return nil }
                let valueStart: Int
                let valueEnd: Int
                if p[j] == UInt8(ascii: "\"") || p[j] == UInt8(ascii: "'") {
                    let quote = p[j]
                    valueStart = j + 1
                    guard let close = p[valueStart...].firstIndex(where: { $0 == quote || $0 == UInt8(ascii: "<") }), p[close] == quote
                    else { return nil }
                    valueEnd = close
                    j = close + 1
                } else {
                    valueStart = j
                    while j < p.count && !Self.isSpace(p[j]) && p[j] != UInt8(ascii: ">") && p[j] != UInt8(ascii: "<") { j += 1 }
                    valueEnd = j
                }
                // First wins, as in HTML.
                if attributes[attribute] == nil { attributes[attribute] = Self.decodingEntities(p[valueStart..<valueEnd]) }
            }
        }

        /// An attribute value with its entities replaced.
        private static func decodingEntities(_ bytes: ArraySlice<UInt8>) -> String {
            guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
            let value = Conversion(Array(bytes))
            var out: [UInt8] = []
            var k = 0
            while k < value.input.count {
                if value.input[k] == UInt8(ascii: "&"), let (scalar, end) = value.entity(at: k) {
                    UTF8.encode(scalar) { out.append($0) }
                    k = end
                } else {
                    out.append(value.input[k])
                    k += 1
                }
            }
            return String(decoding: out, as: UTF8.self)
        }

        /// The character of the entity at `start` (a `&`) and where it ends; nil for what is not one (`Q&A`,
        /// `&copy;`, a control character), which stays text.
        private func entity(at start: Int) -> (Unicode.Scalar, Int)? {
            let p = input
            var j = start + 1
            if j < p.count && p[j] == UInt8(ascii: "#") {
                j += 1
                let hex = j < p.count && (p[j] | 0x20) == UInt8(ascii: "x")
                if hex { j += 1 }
                let digits = j
                let (value, end) = OPML.referenceNumber(p, from: j, hex: hex)
                j = end
                guard j > digits, j < p.count, p[j] == UInt8(ascii: ";") else { return nil }
                // Controls stay text: a title's HTML must not be a way to put escape sequences in it.
                guard value == 0x09 || value == 0x0A || (value >= 0x20 && !(0x7F...0x9F).contains(value)),
                    let scalar = Unicode.Scalar(value)
                else { return nil }
                return (scalar, j + 1)
            }
            let name = j
            while j < p.count, j - name < 8, Self.isNameByte(p[j]) { j += 1 }
            guard j < p.count, p[j] == UInt8(ascii: ";") else { return nil }
            let scalar: Unicode.Scalar
            switch String(decoding: p[name..<j], as: UTF8.self) {
            case "amp": scalar = "&"
            case "lt": scalar = "<"
            case "gt": scalar = ">"
            case "quot": scalar = "\""
            case "apos": scalar = "'"
            case "nbsp": scalar = "\u{A0}"
            default: return nil
            }
            return (scalar, j + 1)
        }
    }
}
