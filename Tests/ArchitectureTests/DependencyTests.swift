import Foundation
import Testing

/// The package's dependencies point one way, read from `Package.swift` and from every source file's imports:
/// each target of ours sits on a layer and depends only on targets of lower layers (docs/ARCHITECTURE.md
/// draws them), and a file imports only what its target declares. A new target fails here until it is given
/// a layer.
@Suite struct DependencyTests {
    /// The layers, bottom first. Test targets may depend on anything.
    static let layers: [String: Int] = [
        "CTextScan": 0, "CSQLiteConfig": 0, "CCMarkGFM": 0, "CNCursesW": 0, "CTerminalGuard": 0,
        "ObjectGraph": 1, "TerminalKit": 1, "OutlineServer": 1,
        "Outline": 2, "CursesBackend": 2, "BurrowSettings": 2,
        "OutlineSync": 3, "BurrowApp": 3, "BurrowConfig": 3,
        "BurrowCommands": 4,
        "BurrowCLI": 5, "TerminalDemo": 5, "BurrowBenchmarks": 5, "DVDLibrary": 5
    ]

    /// A target as `Package.swift` declares it.
    struct Target {
        var name: String
        var kind: String
        var dependencies: [String]
        var path: String
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The targets, from the manifest's text: each `.target(`, `.executableTarget(`, `.testTarget(` or
    /// `.systemLibrary(` with its name, its `path:` if any, and the quoted names in its `dependencies: [...]`
    /// that are not `.product(...)`s.
    static func targets() throws -> [Target] {
        let text = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let kinds = ["target", "executableTarget", "testTarget", "systemLibrary"]
        let starts = try Regex("\\.(\(kinds.joined(separator: "|")))\\(")
        let matches = text.matches(of: starts)
        var out: [Target] = []
        for (k, match) in matches.enumerated() {
            let end = k + 1 < matches.count ? matches[k + 1].range.lowerBound : text.endIndex
            let chunk = String(text[match.range.upperBound..<end])
            let kind = String(text[match.range].dropFirst().dropLast())
            guard let name = chunk.firstMatch(of: /name: "(\w+)"/)?.1 else { continue }
            var dependencies: [String] = []
            if let list = chunk.firstMatch(of: /dependencies: \[([^\]]*)\]/)?.1 {
                let own = String(list).replacing(/\.product\([^)]*\)/, with: "")
                dependencies = own.matches(of: /"(\w+)"/).map { String($0.1) }
            }
            let path = chunk.firstMatch(of: /path: "([^"]+)"/).map { String($0.1) } ?? (kind == "testTarget" ? "Tests/" : "Sources/") + name
            out.append(Target(name: String(name), kind: kind, dependencies: dependencies, path: path))
        }
        return out
    }

    @Test func everyTargetOfOursDependsOnlyOnLowerLayers() throws {
        let targets = try Self.targets()
        #expect(targets.count > 20, "the manifest was not read: \(targets.map(\.name))")
        for t in targets where t.kind != "testTarget" && t.name != "TestSupport" {
            guard let layer = Self.layers[t.name] else {
                Issue.record("\(t.name) has no layer: give it one in DependencyTests.layers and in docs/ARCHITECTURE.md")
                continue
            }
            for d in t.dependencies {
                guard let below = Self.layers[d] else {
                    Issue.record("\(t.name) depends on \(d), which has no layer")
                    continue
                }
                #expect(below < layer, "\(t.name) (layer \(layer)) depends on \(d) (layer \(below))")
            }
        }
    }

    @Test func theRulesOfTheHouseHold() throws {
        let byName = Dictionary(uniqueKeysWithValues: try Self.targets().map { ($0.name, $0) })
        let libraries = byName.values.filter { $0.kind != "testTarget" && $0.name != "TestSupport" }
        // ObjectGraph knows nothing of outlines or terminals; TerminalKit knows no store; the server no target of ours.
        #expect(byName["ObjectGraph"]?.dependencies == ["CTextScan", "CSQLiteConfig"])
        #expect(byName["TerminalKit"]?.dependencies == [])
        #expect(byName["OutlineServer"]?.dependencies == [])
        // Only CursesBackend touches ncurses; the config file knows settings as data, not the outliner.
        #expect(libraries.filter { $0.dependencies.contains("CNCursesW") }.map(\.name) == ["CursesBackend"])
        #expect(byName["BurrowConfig"]?.dependencies.contains("BurrowApp") == false)
        // The library tests never build the outliner.
        for name in ["ObjectGraphTests", "OutlineTests", "TestSupport"] {
            #expect(byName[name]?.dependencies.contains { ["BurrowCLI", "BurrowApp", "BurrowCommands"].contains($0) } == false, "\(name)")
        }
    }

    @Test func everyFileImportsOnlyWhatItsTargetDeclares() throws {
        let targets = try Self.targets()
        let ours = Set(targets.map(\.name))
        var checked = 0
        for t in targets where t.kind != "systemLibrary" {
            let folder = Self.root.appendingPathComponent(t.path)
            guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in files where file.pathExtension == "swift" {
                let text = try String(contentsOf: file, encoding: .utf8)
                for line in text.split(separator: "\n") {
                    // "import X", "@testable import X", "import struct X.Y": the module is the word after "import" (and a kind).
                    var words = line.split(separator: " ")
                    if words.first == "@testable" { words.removeFirst() }
                    guard words.first == "import", words.count > 1 else { continue }
                    let kinds: Set<Substring> = ["struct", "class", "enum", "protocol", "func", "typealias", "var", "let"]
                    let named = kinds.contains(words[1]) && words.count > 2 ? words[2] : words[1]
                    let module = String(named.prefix { $0 != "." })
                    guard ours.contains(module), module != t.name else { continue }
                    checked += 1
                    #expect(
                        t.dependencies.contains(module), "\(file.lastPathComponent) in \(t.name) imports \(module), which \(t.name) does not declare")
                }
            }
        }
        #expect(checked > 100, "only \(checked) imports of our modules found")
    }

    /// The outliner reaches the outline through `Outline`'s API (`Outline+Session` holds what a screen needs
    /// of the unit of work), never through its context.
    @Test func theOutlinerNeverReachesAroundTheOutline() throws {
        let folder = Self.root.appendingPathComponent("Sources/BurrowApp")
        let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        var read = 0
        for case let file as URL in files where file.pathExtension == "swift" {
            read += 1
            let text = try String(contentsOf: file, encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                #expect(!code.contains(".context"), "\(file.lastPathComponent):\(n + 1) uses a context: \(line)")
            }
        }
        #expect(read > 30)
    }
}
