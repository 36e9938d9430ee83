/// An outline as plain values, between a file format and the store: what import reads and export writes.
///
/// ```swift
/// let doc = [OutlineNode("Groceries", children: [OutlineNode("Milk"), OutlineNode("Eggs", done: true)])]
/// ```
public struct OutlineNode: Equatable, Sendable {
    public var title: String
    public var note: String?
    public var done: Bool
    public var children: [OutlineNode]

    public init(_ title: String, note: String? = nil, done: Bool = false, children: [OutlineNode] = []) {
        self.title = title
        self.note = note
        self.done = done
        self.children = children
    }

    /// Nodes in this subtree (itself included).
    public var count: Int {
        var n = 0
        var stack = [self]
        while let x = stack.popLast() {
            n += 1
            stack += x.children
        }
        return n
    }
}

/// A file that cannot be read as the format it claims to be; nothing was imported.
public struct InterchangeError: Error, Equatable, Sendable, CustomStringConvertible {
    public let format: String
    public let line: Int
    public let column: Int
    public let message: String

    public init(format: String, line: Int, column: Int, message: String) {
        self.format = format
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(format) line \(line), column \(column): \(message)" }
}

/// The interchange formats.
public enum OutlineFormat: String, CaseIterable, Sendable {
    case opml, markdown, text, json

    /// The format a file name suggests, if any.
    public static func guess(fileName: String) -> OutlineFormat? {
        let lower = fileName.lowercased()
        if lower.hasSuffix(".opml") || lower.hasSuffix(".xml") { return .opml }
        if lower.hasSuffix(".md") || lower.hasSuffix(".markdown") { return .markdown }
        if lower.hasSuffix(".json") { return .json }
        if lower.hasSuffix(".txt") { return .text }
        return nil
    }

    /// The format the content looks like (OPML, JSON), else nil.
    public static func sniff(_ text: String) -> OutlineFormat? {
        let start = text.drop { $0.isWhitespace }
        if start.hasPrefix("<?xml") || start.hasPrefix("<opml") { return .opml }
        if start.hasPrefix("{") || start.hasPrefix("[") { return .json }
        if start.hasPrefix("- ") || start.hasPrefix("* ") || start.hasPrefix("+ ") { return .markdown }
        return nil
    }

    /// Reads `text` in this format.
    public func read(_ text: String) throws(InterchangeError) -> [OutlineNode] {
        switch self {
        case .opml: return try OPML.read(text)
        case .markdown: return try MarkdownOutline.read(text)
        case .text: return try IndentedText.read(text)
        case .json: return try JSONOutline.read(text)
        }
    }

    /// Writes `nodes` in this format.
    public func write(_ nodes: [OutlineNode], title: String = "Burrow") -> String {
        switch self {
        case .opml: return OPML.write(nodes, title: title)
        case .markdown: return MarkdownOutline.write(nodes)
        case .text: return IndentedText.write(nodes)
        case .json: return JSONOutline.write(nodes)
        }
    }
}
