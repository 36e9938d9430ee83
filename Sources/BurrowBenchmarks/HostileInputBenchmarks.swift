import Foundation
import Outline

/// Inputs that once made a reader quadratic, each read beside a plain file of the same size by the same
/// reader, alternated: linear work keeps the ratio near 1, quadratic work makes it grow with the size (and the
/// bigger size shows it). The tests read these inputs too, for what they give; how long that takes is here, not
/// in a test, since a clock read in a test fails on a loaded machine.
struct HostileInputBenchmarks {
    /// The sizes, smaller then bigger: a ratio that stays put as the size grows is linear.
    let scales: [Int]
    let runs: Int

    func run(only: Set<String>) throws {
        guard only.contains("hostile") || only.isEmpty else { return }
        for scale in scales {
            // One start tag with 40,000 × scale attributes (the duplicate check compared each name with all
            // before it: 127 s for 40,000), against as many bytes of plain items.
            var tag = "<outline text=\"many\""
            for k in 0..<40_000 * scale { tag += " a\(k)=\"v\"" }
            let many = Array(Self.opml(tag + "/>").utf8)
            var items = ""
            while items.utf8.count < many.count - 60 { items += "<outline text=\"an item\"/>\n" }
            let plain = Array(Self.opml(items).utf8)
            let opml = try Harness.interleaved(runs: runs, ours: { _ = try OPML.read(bytes: many) }, baseline: { _ = try OPML.read(bytes: plain) })
            Harness.report(
                "OPML: a tag of \(40 * scale)k attributes (vs plain items)", ours: opml.ours, baseline: opml.baseline, goal: "linear: ratio flat")

            // An Org section of 20,000 × scale lines that open blocks never closed and declare keywords
            // (each line looked back through all before it), against as many bytes of headlines.
            var org = "* h\n"
            for k in 0..<20_000 * scale { org += k % 2 == 0 ? "#+BEGIN_SRC\n" : "#+TODO: K\(k) |\n" }
            org += "* K\(20_000 * scale - 1) last\n"
            var headlines = ""
            while headlines.utf8.count < org.utf8.count { headlines += "** a headline\n" }
            let orgTimes = try Harness.interleaved(
                runs: runs, ours: { _ = try OrgOutline.read(org) }, baseline: { _ = try OrgOutline.read(headlines) })
            Harness.report(
                "Org: \(20 * scale)k keyword and block lines (vs headlines)", ours: orgTimes.ours, baseline: orgTimes.baseline,
                goal: "linear: ratio flat")

            // A note of 40,000 × scale paragraphs between one-item sub-lists (each line looked through every
            // sub-list for its own), against as many bytes of a plain list.
            var note = "- a\n"
            for i in 0..<40_000 * scale { note += "  - b\(i)\n\n  para \(i)\n\n" }
            var list = ""
            while list.utf8.count < note.utf8.count { list += "- an item\n" }
            let markdown = try Harness.interleaved(
                runs: runs, ours: { _ = try MarkdownOutline.read(note) }, baseline: { _ = try MarkdownOutline.read(list) })
            Harness.report(
                "Markdown: a note of \(40 * scale)k blocks (vs a list)", ours: markdown.ours, baseline: markdown.baseline,
                goal: "linear: ratio flat")
        }
    }

    static func opml(_ body: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\">\n<head/><body>\n\(body)\n</body></opml>\n"
    }
}
