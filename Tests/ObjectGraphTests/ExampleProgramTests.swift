import Foundation
import TestSupport
import Testing

/// The tutorial's example program (`Sources/DVDLibrary`, docs/OBJECTGRAPH.md chapter 12), run as a user would:
/// each command a process of its own on one file. People and their DVDs, a refused command that leaves the
/// file as it was, a batch update, a background import reaching a results controller, the change history with
/// its authors, the Colors demo's validation and derived value, and undo across processes.
@Suite(.onAThreadOfItsOwn("example program")) struct ExampleProgramTests {
    static let program: String = {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("DVDLibrary").path
    }()

    @Test func aSessionWithTheExampleProgram() throws {
        let dir = TemporaryDirectory("objectgraph-example")
        let file = dir.path("library.sqlite")
        func run(_ arguments: String..., status: Int32 = 0) throws -> [String] {
            let result = try Spawn.run(Self.program, [file] + arguments)
            #expect(result.status == status, "\(arguments): \(result.err)")
            let text = status == 0 ? result.out : result.err
            return text.split(separator: "\n").map(String.init)
        }
        #expect(try run("changes") == ["watching changes from now on"])
        #expect(try run("add-person", "ann", "Ann Smith") == ["added ann (Ann Smith)"])
        #expect(try run("add-dvd", "ann", "Brazil") == ["ann has 1 DVDs"])
        #expect(try run("add-dvd", "ann", "Alien", "1999-05-01") == ["ann has 2 DVDs"])
        // Refused: nothing written, a sentence on standard error.
        #expect(try run("add-dvd", "bob", "Heat", status: 1) == ["dvd-library: there is no person “bob”"])
        #expect(try run("add-person", "ann", "Another Ann", status: 1).first?.contains("another Person already has this username") == true)
        #expect(try run("add-dvd", "ann", "", status: 1).first?.hasSuffix(".title is shorter than 1") == true)
        #expect(try run("add-dvd", "ann", "Heat", "yesterday", status: 1) == ["dvd-library: “yesterday” is not a date (YYYY-MM-DD)"])
        #expect(try run("list") == ["ann (Ann Smith): 2 DVDs", "  · Alien bought 1999-05-01", "  · Brazil"])
        #expect(try run("watched", "ann") == ["2 DVDs of ann marked watched"])
        // Paced: one slice a poll, each a snapshot (3; fewer only if this machine stalled the polling thread
        // past the pacing timeout, a second, and a poll then found two slices).
        let imported = try run("import", "ann", "2500")
        let slices = ["1", "2", "3"].filter {
            imported == ["imported 2500 DVDs for ann in the background; the list shows 2502 (was 2), in \($0) snapshot(s), the last of 2502 DVDs"]
        }
        #expect(slices.count == 1, "\(imported)")
        #expect(try run("list").prefix(4) == ["ann (Ann Smith): 2502 DVDs", "  ✓ Alien bought 1999-05-01", "  ✓ Brazil", "  · Imported 0000000"])
        #expect(
            try run("changes") == [
                "commit 1 by dvd-library: 1 inserted, 0 updated, 0 deleted",
                "commit 2 by dvd-library: 1 inserted, 1 updated, 0 deleted",
                "commit 3 by dvd-library: 1 inserted, 1 updated, 0 deleted",
                "commit 4 by dvd-library: 0 inserted, 2 updated, 0 deleted",
                "commit 5 by import: 1000 inserted, 1 updated, 0 deleted",
                "commit 6 by import: 1000 inserted, 1 updated, 0 deleted",
                "commit 7 by import: 500 inserted, 1 updated, 0 deleted"
            ])
        #expect(try run("changes") == ["no changes"])
        #expect(try run("add-color", "Orange", "1", "0.5", "0") == ["Orange #FF8000"])
        #expect(try run("add-color", "Too Red", "1.5", "0", "0", status: 1).first?.hasSuffix(".red = 1.5 is above the maximum 1.0") == true)
        #expect(try run("colors") == ["Orange  red 1.00  green 0.50  blue 0.00  #FF8000"])
        // The detail view, and an edit through it: saved, shown, refused out of range with the file unchanged.
        #expect(
            try run("color", "Orange") == [
                "Orange  #FF8000", "red   ████████████████████ 1.00", "green ██████████·········· 0.50", "blue  ···················· 0.00"
            ])
        #expect(try run("set-color", "Orange", "blue", "0.25").first == "Orange  #FF8040")
        #expect(try run("set-color", "Orange", "green", "-0.1", status: 1).first?.hasSuffix(".green = -0.1 is below the minimum 0.0") == true)
        #expect(try run("set-color", "Orange", "alpha", "1", status: 1) == ["dvd-library: a color has red, green and blue, not “alpha”"])
        #expect(try run("color", "Teal", status: 1) == ["dvd-library: there is no color “Teal”"])
        #expect(try run("color", "Orange").prefix(3) == ["Orange  #FF8040", "red   ████████████████████ 1.00", "green ██████████·········· 0.50"])
        #expect(try run("undo") == ["undid Set blue of Orange"])
        #expect(try run("colors") == ["Orange  red 1.00  green 0.50  blue 0.00  #FF8000"])
        // Undo is the store's: the next process undoes what the last one did.
        #expect(try run("undo") == ["undid Add Orange"])
        #expect(try run("colors") == ["no colors"])
        // The next step to undo added Alien, which the batch update has changed since: undoing it would undo
        // that too, so it is refused, and nothing changes.
        let refused = try run("undo", status: 1).first ?? ""
        #expect(refused.hasPrefix("dvd-library: cannot undo “Add “Alien””: DVD #") && refused.hasSuffix(" was changed elsewhere (watched)"))
        #expect(try run("list").first == "ann (Ann Smith): 2502 DVDs")
        // A batch delete: the two watched DVDs go, the count follows.
        #expect(try run("forget-watched", "ann") == ["2 watched DVDs of ann removed"])
        #expect(try run("list").prefix(2) == ["ann (Ann Smith): 2500 DVDs", "  · Imported 0000000"])
    }
}
