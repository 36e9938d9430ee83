@testable import Outline

/// The outline cmark-gfm's own HTML of a document stands for, by the rules docs/FORMATS.md gives for
/// Markdown, read from the HTML alone: the judge the reader is held against. Shapes only (items, done flags,
/// nesting) and titles that hold no Markdown punctuation (the HTML shows their text, the reader keeps the
/// source), not notes.
struct HTMLOutline: Equatable, CustomStringConvertible {
    var title: String?
    var done: Bool
    var children: [HTMLOutline]

    var description: String {
        (done ? "[x] " : "") + (title.map { "\"\($0)\"" } ?? "…") + (children.isEmpty ? "" : " \(children)")
    }

    /// The shape of outline nodes, with each title when it holds no Markdown punctuation.
    static func of(_ nodes: [OutlineNode]) -> [HTMLOutline] {
        nodes.map { node in
            let plain = !node.title.contains { "\\`*_[]<>&!#".contains($0) }
            return HTMLOutline(title: plain ? node.title : nil, done: node.isDone, children: of(node.children))
        }
    }

    /// The outline cmark-gfm's HTML of `markdown` describes.
    static func judging(_ markdown: String) -> (outline: [HTMLOutline], html: String) {
        let html = MarkdownDocument(Array(markdown.utf8)).html
        var parser = Parser(html: Array(html.utf8))
        let top = parser.parse()
        return (document(top), html)
    }

    // MARK: From the document's elements

    private static func document(_ blocks: [Element]) -> [HTMLOutline] {
        var roots: [HTMLOutline] = []
        var headings: [(level: Int, node: HTMLOutline)] = []  // open sections
        var loose: HTMLOutline?
        var looseTakesBlocks = false
        // Right after a top-level list: code, a quote, HTML are its last item's note.
        var afterList = false
        func add(_ node: HTMLOutline) {
            if headings.isEmpty { roots.append(node) } else { headings[headings.count - 1].node.children.append(node) }
        }
        func close(to level: Int) {
            while let last = headings.last, last.level >= level {
                headings.removeLast()
                if headings.isEmpty { roots.append(last.node) } else { headings[headings.count - 1].node.children.append(last.node) }
            }
        }
        func flushLoose() {
            if let item = loose { roots.append(item) }
            loose = nil
        }
        for block in blocks {
            if let level = block.headingLevel {
                flushLoose()
                close(to: level)
                headings.append((level, HTMLOutline(title: comparable(block.text), done: false, children: [])))
            } else if block.name == "ul" || block.name == "ol" {
                flushLoose()
                looseTakesBlocks = false
                for item in block.elements where item.name == "li" { add(listItem(item)) }
                afterList = true
            } else if !headings.isEmpty || block.name == "hr" {
                continue  // a heading's note, or a thematic break
            } else if block.name == "p" {
                flushLoose()
                afterList = false
                loose = HTMLOutline(title: comparable(block.text), done: false, children: [])
                looseTakesBlocks = true
            } else if afterList {
                continue
            } else if !(looseTakesBlocks && loose != nil) {
                flushLoose()
                loose = HTMLOutline(title: "", done: false, children: [])
                looseTakesBlocks = true
            }
        }
        flushLoose()
        close(to: 0)
        return roots
    }

    private static func listItem(_ li: Element) -> HTMLOutline {
        var done = false
        var inline = ""
        var title: String?
        var children: [HTMLOutline] = []
        var sawBlock = false
        for child in li.children {
            switch child {
            case .text(let t):
                if !sawBlock { inline += t }
            case .element(let e):
                if e.name == "input" {
                    done = e.attributes.contains("checked")
                } else if e.name == "ul" || e.name == "ol" {
                    if !sawBlock && title == nil { title = inline }
                    sawBlock = true
                    children += e.elements.filter { $0.name == "li" }.map(listItem)
                } else if e.isBlock {
                    if !sawBlock {
                        let leading = inline.trimmingBlanks
                        // A paragraph or (Logseq's `- ## Usage`) a heading first is the title.
                        let titled = e.name == "p" || ["h1", "h2", "h3", "h4", "h5", "h6"].contains(e.name)
                        title = titled && leading.isEmpty ? e.text : leading
                    }
                    sawBlock = true
                } else if !sawBlock {
                    inline += e.text
                }
            }
        }
        if title == nil { title = inline }
        return HTMLOutline(title: comparable(title!), done: done, children: children)
    }

    private static func comparable(_ text: String) -> String? {
        let t = text.replacingOccurrences(of: "\n", with: " ").trimmingBlanks
        return t.contains { "\\`*_[]<>&!#".contains($0) } ? nil : t
    }

    // MARK: A small reader of cmark's HTML (well-formed, `<` only in tags)

    indirect enum Content {
        case text(String)
        case element(Element)
    }

    struct Element {
        var name: String
        var attributes: String
        var children: [Content] = []

        var elements: [Element] { children.compactMap { if case .element(let e) = $0 { e } else { nil } } }
        var text: String {
            children.map {
                switch $0 {
                case .text(let t): t
                case .element(let e): e.name == "br" ? "\n" : e.text
                }
            }.joined()
        }
        var headingLevel: Int? {
            name.count == 2 && name.first == "h" ? Int(String(name.last!)) : nil
        }
        var isBlock: Bool {
            ["p", "pre", "blockquote", "hr", "table", "div", "ul", "ol", "#comment"].contains(name) || headingLevel != nil
        }
    }

    private struct Parser {
        let html: [UInt8]
        var i = 0

        mutating func parse() -> [Element] {
            var stack: [Element] = [Element(name: "#root", attributes: "")]
            var text: [UInt8] = []
            func flushText() {
                if !text.isEmpty {
                    stack[stack.count - 1].children.append(.text(decode(String(decoding: text, as: UTF8.self))))
                    text = []
                }
            }
            while i < html.count {
                if html[i] != UInt8(ascii: "<") {
                    text.append(html[i])
                    i += 1
                    continue
                }
                flushText()
                if html[i...].starts(with: Array("<!--".utf8)) {
                    let end = find("-->") ?? html.count
                    stack[stack.count - 1].children.append(.element(Element(name: "#comment", attributes: "")))
                    i = min(end + 3, html.count)
                    continue
                }
                let end = find(">") ?? html.count
                let tag = String(decoding: html[(i + 1)..<end], as: UTF8.self)
                i = end + 1
                if tag.hasPrefix("/") {
                    let element = stack.removeLast()
                    stack[stack.count - 1].children.append(.element(element))
                } else {
                    let name = String(tag.prefix { $0 != " " && $0 != "/" })
                    let element = Element(name: name, attributes: tag)
                    if tag.hasSuffix("/") || ["hr", "br", "input", "img"].contains(name) {
                        stack[stack.count - 1].children.append(.element(element))
                    } else {
                        stack.append(element)
                    }
                }
            }
            flushText()
            return stack[0].elements
        }

        func find(_ s: String) -> Int? {
            let needle = Array(s.utf8)
            var j = i
            while j + needle.count <= html.count {
                if html[j..<(j + needle.count)].elementsEqual(needle) { return j }
                j += 1
            }
            return nil
        }

        func decode(_ s: String) -> String {
            s.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
        }
    }
}

extension String {
    fileprivate var trimmingBlanks: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\n" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\n" { s = s.dropLast() }
        return String(s)
    }
}
