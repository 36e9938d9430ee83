import Foundation
import Outline
import Testing

@testable import BurrowCommands

/// `burrow import` finds a file's format by its name, else by how it starts, and refuses one it cannot
/// tell rather than guess; Org files go in and out whole.
@Suite struct ImportFormatCommandTests {
    static let org = """
        #+TITLE: Plans
        * TODO Ship                                                      :work:
          SCHEDULED: <2026-05-01 Fri>
        ** DONE Write notes
        * Read

        """

    @Test func anOrgFileByNameAndByContent() throws {
        let sh = Shell()
        let file = sh.file("plans.org")
        try Data(Self.org.utf8).write(to: URL(fileURLWithPath: file))
        var r = sh.run("import", file)
        #expect(r.0 == 0, "\(r)")
        // `#+TITLE:` is the outline's own (the top level's note), not an item; TODO is Ship's state.
        #expect(r.1.hasPrefix("Imported 3 items from \(file) (org)"), "\(r)")
        let tree =
            "[ ] TODO Ship · planned 2026-05-01 #work (1)\n"
            + "  [x] DONE Write notes\n[ ] Read\n"
        #expect(sh.run("ls", "--tree").1 == tree)
        #expect(sh.run("export", "--format", "org").1 == Self.org)
        let out = sh.file("back.org")
        #expect(sh.run("export", "-o", out).0 == 0)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == Self.org)
        // On standard input, by its first line: a keyword line, or a headline.
        let other = Shell()
        r = other.run("import", "-", stdin: Self.org)
        #expect(r.0 == 0 && r.1.hasPrefix("Imported 3 items from standard input (org)"), "\(r)")
        r = other.run("import", "-", stdin: "\n* a\n** b\n")
        #expect(r.0 == 0 && r.1.hasPrefix("Imported 2 items from standard input (org)"), "\(r)")
        // The name wins over the content: a list in a .org file is text above the first headline.
        let list = sh.file("list.org")
        try Data("- a\n- b\n".utf8).write(to: URL(fileURLWithPath: list))
        r = other.run("import", list, "--under", "a")
        #expect(r.0 == 0, "\(r)")
        #expect(other.run("ls", "--notes").1.contains("- a\n"), "\(other.run("ls", "--notes"))")
    }

    /// Files whose format neither name nor content tells: refused with the formats to name, nothing added,
    /// whatever their bytes; named, the same file imports.
    @Test func aFormatItCannotTellIsRefused() throws {
        let sh = Shell()
        sh.run("add", "Keep me")
        let before = sh.run("ls", "--tree").1
        let plain = sh.file("notes.outline")
        try Data("Groceries\n\tMilk\n".utf8).write(to: URL(fileURLWithPath: plain))
        let binary = sh.file("archive.docx")
        try Data([0x50, 0x4B, 0x03, 0x04, 0xFF, 0x00, 0x0A, 0x2A, 0x20]).write(to: URL(fileURLWithPath: binary))
        let advice = "name it with --format opml|markdown|org|text|json\n"
        var r = sh.run("import", plain)
        #expect(r == (1, "", "burrow: cannot tell the format of \(plain); " + advice))
        r = sh.run("import", binary)
        #expect(r == (1, "", "burrow: cannot tell the format of \(binary); " + advice))
        r = sh.run("import", "-", stdin: "Groceries\n\tMilk\n")
        #expect(r == (1, "", "burrow: cannot tell the format of standard input; " + advice))
        r = sh.run("import", "-", stdin: "")
        #expect(r == (1, "", "burrow: cannot tell the format of standard input; " + advice))
        #expect(sh.run("ls", "--tree").1 == before)
        r = sh.run("import", plain, "--format", "text")
        #expect(r.0 == 0 && r.1.hasPrefix("Imported 2 items from \(plain) (text)"), "\(r)")
        r = sh.run("import", "-", "--format", "org", stdin: "Groceries\n\tMilk\n")
        // All of it is text before a first headline: the top level's note, said so.
        #expect(r.0 == 0 && r.1.hasPrefix("Imported 0 items from standard input (org)"), "\(r)")
        #expect(r.1.contains("Its text before the first headline is the note of the top level"), "\(r)")
        // Named but not UTF-8: the byte is named, as before.
        r = sh.run("import", binary, "--format", "org")
        #expect(r.0 == 1 && r.2 == "burrow: \(binary) line 1, column 5: not UTF-8 (byte 0xFF); convert the file to UTF-8\n", "\(r)")
    }

    /// An OmniOutliner export through `burrow import`: `_status="checked"` rows are done.
    @Test func omniOutlinerStatus() throws {
        let sh = Shell()
        let file = sh.file("omni.opml")
        let opml = """
            <?xml version="1.0" encoding="utf-8" standalone="no"?>
            <opml version="2.0"><head><title>Plans</title></head><body>
            <outline text="Trip" _status="indeterminate"><outline text="Book" _status="checked"/><outline text="Pack" _status="unchecked"/></outline>
            </body></opml>
            """
        try Data(opml.utf8).write(to: URL(fileURLWithPath: file))
        #expect(sh.run("import", file).0 == 0)
        #expect(sh.run("ls", "--tree").1 == "[ ] Trip (2)\n  [x] Book\n  [ ] Pack\n")
    }

    /// A Workflowy export: its bold, italic and links come in as Markdown, not as tags, and a `<` typed as
    /// text is a `<`; Burrow's own OPML of the result reads back the same, tags as typed included.
    @Test func workflowysMarkupComesInAsMarkdown() throws {
        let sh = Shell()
        let file = sh.file("workflowy.opml")
        let opml = """
            <?xml version="1.0"?>
            <opml version="2.0"><head><ownerEmail>someone@example.org</ownerEmail></head><body>
            <outline text="&lt;b&gt;Projects&lt;/b&gt;"><outline text="the &lt;i&gt;new&lt;/i&gt; &lt;a href=&quot;https://example.org&quot;&gt;site&lt;/a&gt;" />
            <outline text="a &amp;lt;b&amp;gt; tag, typed" /></outline>
            </body></opml>
            """
        try Data(opml.utf8).write(to: URL(fileURLWithPath: file))
        #expect(sh.run("import", file).0 == 0)
        let tree = "[ ] **Projects** (2)\n  [ ] the *new* [site](https://example.org)\n  [ ] a <b> tag, typed\n"
        #expect(sh.run("ls", "--tree").1 == tree)
        let back = sh.file("back.opml")
        #expect(sh.run("export", "-o", back).0 == 0)
        let other = Shell()
        #expect(other.run("import", back).0 == 0)
        #expect(other.run("ls", "--tree").1 == tree)
    }
}
