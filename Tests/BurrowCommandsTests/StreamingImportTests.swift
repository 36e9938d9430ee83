import Foundation
import Outline
import Testing

@testable import BurrowCommands

/// `burrow import` of OPML streams: the file is mapped and read while its items are written a batch at a time
/// (`OutlineLoader`, `Context.flushRows`), and pages read already are given back. What must still hold: the
/// same outline as reading it whole, one undoable action, nothing added when the file turns out bad far in,
/// and error positions right after the pages before them were given back.
@Suite struct StreamingImportTests {
    /// An OPML file of `groups` top-level items of `each` sub-items (each with a note every 7th), with
    /// `tail` written before the closing tags.
    static func opml(groups: Int, each: Int, tail: String = "") -> String {
        var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\"><head><title>t</title></head><body>\n"
        for g in 0..<groups {
            s += "<outline text=\"group \(g)\">\n"
            for k in 0..<each {
                s +=
                    "  <outline text=\"item \(g).\(k) &amp; more\"" + (k % 7 == 0 ? " _note=\"note \(k)\"" : "")
                    + (k % 5 == 0 ? " _complete=\"true\"" : "")
                s += "/>\n"
            }
            s += "</outline>\n"
        }
        return s + tail + "</body></opml>\n"
    }

    @Test func aFileOfManyBatchesIsTheOutlineReadWholeAndOneAction() throws {
        let sh = Shell()
        let text = Self.opml(groups: 30, each: 700)  // 21,030 items: three batches
        let file = sh.file("big.opml")
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let r = sh.run("import", file)
        #expect(r.0 == 0 && r.1.hasPrefix("Imported 21030 items from \(file) (opml)"), "\(r)")
        #expect(sh.run("check").0 == 0)
        // The same outline as the whole-tree reader gives.
        let exported = sh.run("export", "--format", "json").1
        let whole = try OPML.read(text)
        #expect(try JSONOutline.read(exported) == whole)
        // One action, undone and redone whole.
        #expect(sh.run("history", "--limit", "1").1.contains("Import “big.opml” (21030 items)"))
        #expect(sh.run("undo").0 == 0)
        #expect(sh.run("ls").1 == "(no items under the top level)\n")
        #expect(sh.run("redo").0 == 0)
        #expect(sh.run("export", "--format", "json").1 == exported)
        #expect(sh.run("check").0 == 0)
    }

    /// A fault past the first batches (and past the first 8 MiB, whose pages were given back) leaves the
    /// outline as it was, and names the right line.
    @Test func aFaultFarInAddsNothingAndNamesItsLine() throws {
        let sh = Shell()
        sh.run("add", "Keep me")
        let before = sh.run("export", "--format", "json").1
        let text = Self.opml(groups: 200, each: 1000, tail: "<outline text=\"broken & bare\"/>\n")
        #expect(text.utf8.count > 9 << 20, "past the first pages given back")
        let file = sh.file("bad.opml")
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("broken") }! + 1
        let r = sh.run("import", file)
        #expect(r.0 == 1)
        #expect(r.2.contains("\(file): OPML line \(line), column 23:"), "\(r)")
        #expect(sh.run("export", "--format", "json").1 == before)
        #expect(sh.run("history", "--limit", "5").1.contains("Import") == false)
        #expect(sh.run("check").0 == 0)
    }

    /// OPML on standard input and in ISO-8859-1 (converted: nothing of the copy is given back) still streams.
    @Test func standardInputAndLatin1() throws {
        let sh = Shell()
        var r = sh.run("import", "-", stdin: Self.opml(groups: 2, each: 3))
        #expect(r.0 == 0 && r.1.hasPrefix("Imported 8 items from standard input (opml)"), "\(r)")
        let latin = sh.file("latin.opml")
        var bytes = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<opml version=\"2.0\"><body><outline text=\"caf".utf8)
        bytes += [0xE9] + Array("\"/></body></opml>\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: latin))
        r = sh.run("import", latin)
        #expect(r.0 == 0, "\(r)")
        #expect(sh.run("ls").1.contains("café"))
    }

    /// Org and indented text hand their items on line by line: the same outline as reading them whole, across
    /// batches, and a fault in the last line adds nothing.
    @Test(arguments: ["org", "txt"]) func lineFormatsStreamTheSameOutline(ext: String) throws {
        let sh = Shell()
        var text = ext == "org" ? "#+TITLE: big\n" : ""
        for g in 0..<25 {
            text += ext == "org" ? "* group \(g)\n" : "group \(g)\n"
            for k in 0..<400 {
                text +=
                    ext == "org" ? "** \(k % 3 == 0 ? "DONE " : "")item \(g).\(k)\n" + (k % 9 == 0 ? "   a note line\n" : "") : "\titem \(g).\(k)\n"
            }
        }
        let file = sh.file("big.\(ext)")
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let r = sh.run("import", file)
        // An Org file's `#+TITLE:` is the outline's (the top level's note), not an item.
        let count = 25 * 401
        #expect(r.0 == 0 && r.1.hasPrefix("Imported \(count) items"), "\(r)")
        let whole = try (ext == "org" ? OutlineFormat.org : .text).read(text)
        #expect(try JSONOutline.read(sh.run("export", "--format", "json").1) == Array(whole.dropFirst(ext == "org" ? 1 : 0)))
        if ext == "org" { #expect(sh.run("export", "--format", "org").1 == text) }
        #expect(sh.run("check").0 == 0)
        // A fault on the last line: nothing added, and no outline made where there was none.
        let other = Shell()
        let bad = other.file("bad.\(ext)")
        let fault = ext == "org" ? String(repeating: "*", count: 1_001) : "\t\t\t\tfour levels deeper"
        let deep = ext == "org" ? (1...1_001).map { String(repeating: "*", count: $0) + " x\n" }.joined() : ""
        try Data((text + deep + fault + (ext == "org" ? " deep\n" : "\n")).utf8).write(to: URL(fileURLWithPath: bad))
        let failed = other.run("import", bad)
        #expect(failed.0 == 1, "\(failed)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.dir.path("")) == ["bad.\(ext)"])
        #expect(other.run("add", "kept").0 == 0)
        #expect(other.run("import", bad).0 == 1)
        #expect(other.run("ls").1 == "[ ] kept\n")
    }
}
