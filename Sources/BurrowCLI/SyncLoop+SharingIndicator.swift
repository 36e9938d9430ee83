import BurrowApp
import OutlineSync

/// The outliner's status line shows the sync: "offline · 3 pending", "2 pending" while sending, "synced".
extension SyncLoop: SharingIndicator {
    public var label: String? {
        let s = state
        let pending = s.pending > 0 ? "\(s.pending) pending" : nil
        if s.ended && s.problem == "no longer shared" { return nil }
        if !s.online {
            // Before the first answer, with no failure yet: trying.
            let word = s.problem == nil && s.rounds == 0 ? "connecting" : "offline"
            return ([word] + [pending].compactMap { $0 }).joined(separator: " · ")
        }
        return pending ?? "synced"
    }

    public func takeMessages() -> [String] { takeNotes() }
}
