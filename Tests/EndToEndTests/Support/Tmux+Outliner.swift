import Foundation
import TestSupport
import Testing

extension Tmux {
    /// A pane running the outliner on `$TEST_DIR/outline.sqlite`, which holds `items` (Burrow's JSON items)
    /// imported first, once its first frame is drawn; "exit=N" shows when it ends. Returns the pane and the
    /// database's path.
    static func outliner(importing items: [[String: Any]], width: Int = 60, height: Int = 12) throws -> (Tmux, String) {
        let tmux = try Tmux(
            width: width, height: height,
            shellCommand: """
                export BURROW_DB="$TEST_DIR/outline.sqlite" BURROW_LOG="$TEST_DIR/burrow.log"
                ulimit -c 0
                read go
                \(Binaries.path("burrow")); echo "exit=$?"; exec sleep infinity
                """)
        let db = tmux.directory.appendingPathComponent("outline.sqlite").path
        let file = tmux.directory.appendingPathComponent("outline.json")
        try JSONSerialization.data(withJSONObject: ["format": "burrow-outline", "version": 1, "items": items]).write(to: file)
        let (status, _, err) = try Binaries.run("burrow", ["import", file.path, "--db", db])
        try #require(status == 0, "\(err)")
        try tmux.send("Enter")
        let drawn = tmux.waitFor { s in s.count > 2 && s[0].hasPrefix("Burrow") && s.last?.hasSuffix("?: help") == true }
        try #require(drawn != nil, "\(tmux.screen())")
        return (tmux, db)
    }
}
