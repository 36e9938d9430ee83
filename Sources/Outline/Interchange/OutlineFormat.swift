/// The interchange formats.
public enum OutlineFormat: String, CaseIterable, Sendable {
    case opml, markdown, org, text, json

    /// The most levels this format holds, or nil when it holds any number. Markdown, Org and indented text
    /// indent (or star) each level, so a file grows with the square of its depth: 100,000 levels would be gigabytes.
    public var maximumLevels: Int? {
        switch self {
        case .opml, .json: nil
        case .markdown, .org, .text: OutlineBuilder.maximumLevels
        }
    }

    /// Reads `text` in this format.
    public func read(_ text: String) throws(InterchangeError) -> [OutlineNode] {
        switch self {
        case .opml: return try OPML.read(text)
        case .markdown: return try MarkdownOutline.read(text)
        case .org: return try OrgOutline.read(text)
        case .text: return try IndentedText.read(text)
        case .json: return try JSONOutline.read(text)
        }
    }

    /// Writes `nodes` in this format; check ``maximumLevels`` first, or the file may be one its reader refuses.
    public func write(_ nodes: [OutlineNode], title: String = "Burrow") -> String {
        switch self {
        case .opml: return OPML.write(nodes, title: title)
        case .markdown: return MarkdownOutline.write(nodes)
        case .org: return OrgOutline.write(nodes)
        case .text: return IndentedText.write(nodes)
        case .json: return JSONOutline.write(nodes)
        }
    }
}
