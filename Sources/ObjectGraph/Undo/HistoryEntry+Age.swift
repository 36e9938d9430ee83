import Foundation

extension HistoryEntry {
    /// How long ago the action was recorded, in words: "just now", "5 min ago", "3 h ago", "2 days ago".
    public func age(now: Date = Date()) -> String {
        let seconds = max(0, now.timeIntervalSince(date))
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return "\(Int(seconds / 60)) min ago"
        case ..<172_800: return "\(Int(seconds / 3600)) h ago"
        default: return "\(Int(seconds / 86_400)) days ago"
        }
    }
}
