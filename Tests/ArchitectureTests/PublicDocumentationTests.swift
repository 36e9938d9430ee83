import Foundation
import Testing

/// Every public symbol of ObjectGraph has a `///` doc comment. The project's rule: public API gets at least a
/// one-line doc comment saying what it is or when to use it. ObjectGraph is a library meant to be chosen and used
/// by others, who read it in DocC (`Resources/docs.sh`) and in their editor, not in our sources.
///
/// Read from the source text: each `public` or `open` declaration, each case of a public enum and each
/// requirement of a public protocol needs a `///` line above it (attribute lines and plain `//` comments may come
/// between). A failure lists every undocumented symbol at once, as `path:line: declaration`.
@Suite struct PublicDocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A type or extension body the scan is inside.
    struct Scope: Sendable {
        /// `struct`, `class`, `enum`, `actor`, `protocol` or `extension`.
        var kind: String
        var name: String
        /// The declaration's first line (an extension's conformances are on it).
        var header: String
        /// The brace depth of the body's own members.
        var depth: Int
        var isPublic: Bool
    }

    /// A public symbol's declaration line and the type or extension it is declared in.
    struct Declaration: Sendable {
        var text: String
        var scope: Scope?
        /// The enclosing type's name without its outer types (`Move` for `ResultsBatch.Move`).
        var typeName: String? { scope.map { String($0.name.split(separator: ".").last ?? "") } }
    }

    /// A protocol witness whose documentation comes from the protocol (DocC shows the protocol's), and why.
    struct Exemption: Sendable {
        var reason: String
        var applies: @Sendable (Declaration) -> Bool
    }

    /// The exemptions, and only these: everything else public is documented.
    static let exemptions: [Exemption] = [
        Exemption(reason: "CustomStringConvertible's description") { $0.text.contains(/\bvar description\s*:/) },
        Exemption(reason: "Hashable's hash(into:)") { $0.text.contains(/\bfunc hash\(into\s/) },
        // Only on two values of the enclosing type: `Property`'s `==`, `<`… build predicates, and are API.
        Exemption(reason: "Equatable's == and Comparable's < on two values of the enclosing type") { d in
            guard let m = d.text.firstMatch(of: /\bstatic func (==|<)\s*\(\s*\w+\s*:\s*([\w.]+)\s*,\s*\w+\s*:\s*([\w.]+)\s*\)/),
                let type = d.typeName
            else { return false }
            return Set([String(m.2), String(m.3)]).isSubset(of: [type, "Self"])
        },
        Exemption(reason: "a result builder's build… methods") { $0.text.contains(/\bstatic func build\w*\b/) },
        Exemption(reason: "the ExpressibleBy…Literal initialisers") {
            $0.text.contains(/\binit\??\((stringLiteral|integerLiteral|floatLiteral|booleanLiteral|nilLiteral)[\s:]/)
        },
        Exemption(reason: "a Collection's startIndex, endIndex and subscript(position:)") {
            $0.text.contains(/\bvar (startIndex|endIndex)\b/) || $0.text.contains(/\bsubscript\(position:/)
        },
        Exemption(reason: "an OptionSet's or RawRepresentable's rawValue and init(rawValue:)") {
            $0.text.contains(/\b(var|let) rawValue\b/) || $0.text.contains(/\binit\??\(rawValue:/)
        },
        Exemption(reason: "UserFacingError's userMessage") { $0.text.contains(/\bvar userMessage\b/) },
        Exemption(reason: "AttributeValue's init?(value:) and value, in an `extension X: AttributeValue`") { d in
            guard let scope = d.scope, scope.kind == "extension", scope.header.contains(/:.*\bAttributeValue\b/) else { return false }
            return d.text.contains(/\binit\?\(value: Value\)/) || d.text.contains(/\bvar value: Value\b/)
        }
    ]

    /// An attribute: `@inlinable`, `@exclusivity(unchecked)`.
    static let attribute = #"@\w+(?:\([^)]*\))?"#
    /// A modifier a declaration may carry besides its access level's own word.
    static let modifier =
        #"(?:public|open|final|static|class|override|mutating|nonmutating|nonisolated|required|convenience|lazy|dynamic|indirect|"#
        + #"prefix|postfix|infix|(?:private|fileprivate|internal|package|public)\(set\))"#
    /// A declaration line: attributes and modifiers (in any order), then what it declares.
    static let declaration =
        #"^(?:\#(attribute)\s+)*((?:(?:\#(modifier)|\#(attribute))\s+)*)"#
        + #"(func|var|let|init|subscript|class|struct|enum|protocol|typealias|actor|case)\b"#
    /// The first line of a type or extension (of any access level), for the scope it opens.
    static let scopeHeader =
        #"^(?:\#(attribute)\s+)*(?:(?:\#(modifier)|private|fileprivate|internal|package)\s+)*(struct|class|enum|actor|protocol|extension)\s+"#
        + #"(?!(?:func|var|let|init|subscript)\b)([A-Za-z_][\w.]*)"#
    /// A requirement in a protocol's body.
    static let requirement = #"^(?:\#(attribute)\s+)*(?:(?:static|mutating)\s+)*(func|var|init|subscript|associatedtype)\b"#

    static let tripleQuote = String(repeating: "\"", count: 3)

    /// The line without string literals and `//` comments, for counting braces.
    static func code(_ line: Substring) -> String {
        var out = ""
        var chars = line.makeIterator()
        var previous: Character?
        while let c = chars.next() {
            if c == "\"" {
                var escaped = false
                while let d = chars.next() {
                    if escaped {
                        escaped = false
                    } else if d == "\\" {
                        escaped = true
                    } else if d == "\"" {
                        break
                    }
                }
                previous = nil
                continue
            }
            if c == "/" && previous == "/" {
                out.removeLast()
                break
            }
            out.append(c)
            previous = c
        }
        return out
    }

    /// The public symbols of one source file that have no doc comment, as `path:line: declaration`.
    static func undocumented(in text: String, path: String) throws -> [String] {
        let declaration = try Regex(Self.declaration)
        let scopeHeader = try Regex(Self.scopeHeader)
        let requirement = try Regex(Self.requirement)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var found: [String] = []
        var depth = 0
        var scopes: [Scope] = []
        var header: Scope?
        var inMultilineString = false
        for (n, line) in lines.enumerated() {
            let s = line.trimmingCharacters(in: .whitespaces)
            if s.components(separatedBy: Self.tripleQuote).count % 2 == 0 {
                inMultilineString.toggle()
                continue
            }
            if inMultilineString { continue }
            let inner = scopes.last.flatMap { $0.depth == depth ? $0 : nil }
            var symbol: Declaration?
            var explicit = false
            if let m = try declaration.firstMatch(in: s), let modifiers = m.output[1].substring,
                modifiers.contains(/\b(public|open)\b/), !s.hasPrefix("public extension")
            {
                symbol = Declaration(text: s, scope: scopes.last)
                explicit = true
            } else if let inner, inner.isPublic, inner.kind == "enum", s.contains(/^(indirect\s+)?case\b/) {
                symbol = Declaration(text: s, scope: inner)
            } else if let inner, inner.isPublic, inner.kind == "protocol", try requirement.firstMatch(in: s) != nil {
                symbol = Declaration(text: s, scope: inner)
            }
            if let symbol, !(explicit && exemptions.contains { $0.applies(symbol) }) {
                // The nearest line above that is neither an attribute nor a plain comment must be a doc comment.
                var k = n - 1
                while k >= 0 {
                    let above = lines[k].trimmingCharacters(in: .whitespaces)
                    guard above.hasPrefix("@") || (above.hasPrefix("//") && !above.hasPrefix("///")) else { break }
                    k -= 1
                }
                if k < 0 || !lines[k].trimmingCharacters(in: .whitespaces).hasPrefix("///") {
                    found.append("\(path):\(n + 1): \(s)")
                }
            }
            let code = Self.code(line)
            if let m = try scopeHeader.firstMatch(in: s), let kind = m.output[1].substring, let name = m.output[2].substring {
                let prefix = s[..<kind.startIndex]
                header = Scope(kind: String(kind), name: String(name), header: s, depth: 0, isPublic: prefix.contains(/\b(public|open)\b/))
            }
            for c in code where c == "{" || c == "}" {
                if c == "{" {
                    depth += 1
                    if var opened = header {
                        opened.depth = depth
                        scopes.append(opened)
                        header = nil
                    }
                } else {
                    depth -= 1
                    while let last = scopes.last, depth < last.depth { scopes.removeLast() }
                }
            }
        }
        return found
    }

    /// The relative paths of the library's Swift files, sorted.
    static func sourceFiles() -> [String] {
        let folder = root.appendingPathComponent("Sources/ObjectGraph")
        guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        var out: [String] = []
        for case let file as URL in files where file.pathExtension == "swift" {
            out.append(String(file.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)))
        }
        return out.sorted()
    }

    @Test func everyPublicSymbolOfObjectGraphHasADocComment() throws {
        let files = Self.sourceFiles()
        #expect(files.count > 100, "the library's sources were not found under \(Self.root.path)")
        var missing: [String] = []
        var declarations = 0
        for path in files {
            let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            declarations += text.matches(of: /(?m)^\s*(@\w+\s+)*(public|open)\s/).count
            missing += try Self.undocumented(in: text, path: path)
        }
        #expect(declarations > 450, "only \(declarations) public declarations found: the scan is broken")
        if !missing.isEmpty {
            let list = missing.joined(separator: "\n")
            let rule = "one line saying what it is or when to use it"
            Issue.record("\(missing.count) public symbols of ObjectGraph have no /// doc comment (\(rule)):\n\(list)")
        }
    }

    /// The scan itself: what it must report, and what it must let pass.
    @Test func theScanFindsUndocumentedSymbolsAndOnlyThose() throws {
        let source = """
            /// Documented.
            public struct Point: Equatable, CustomStringConvertible {
                public var x: Int
                /// Documented, with an attribute line between.
                @inlinable
                public var y: Int { 0 }
                /// Documented, with a plain comment between.
                // A plain comment.
                @discardableResult public static func make() -> Point { Point(x: 0) }
                public static func == (a: Point, b: Point) -> Bool { true }
                public var description: String { "" }
                var hidden: Int { 0 }
                package func shared() {}
            }

            public enum Shape {
                /// Documented.
                case circle
                case square, triangle
                public var sides: Int {
                    switch self {
                    case .circle: return 0
                    default: return 4
                    }
                }
            }

            /// Documented.
            public protocol Drawable {
                func draw()
            }

            extension Int: Drawable {
                public func draw() {}
            }

            /// Documented.
            public struct Predicate {
                public static func == (k: Predicate, v: Int) -> Predicate { k }
            }

            extension Int: AttributeValue {
                public init?(value: Value) { nil }
                public var value: Value { .null }
            }
            """
        let found = try Self.undocumented(in: source, path: "Sample.swift")
        #expect(
            found == [
                "Sample.swift:3: public var x: Int",
                "Sample.swift:16: public enum Shape {",
                "Sample.swift:19: case square, triangle",
                "Sample.swift:20: public var sides: Int {",
                "Sample.swift:30: func draw()",
                "Sample.swift:34: public func draw() {}",
                "Sample.swift:39: public static func == (k: Predicate, v: Int) -> Predicate { k }"
            ])
    }
}
