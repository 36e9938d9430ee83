/// Compares an expected screen with an actual one and describes the difference line by line.
///
/// Rows that match are shown once with two spaces; a row that differs is shown as `-` expected and `+` actual,
/// each between `|` bars so trailing text is visible.
public struct ScreenDifference: Sendable {
    public let expected: [String]
    public let actual: [String]
    public let size: Size

    public init(expected: [String], actual: [String], size: Size) {
        self.expected = expected.map { $0.trimmingTrailingSpaces() }
        self.actual = actual.map { $0.trimmingTrailingSpaces() }
        self.size = size
    }

    /// Nil when the screens match; otherwise the report.
    public var report: String? {
        guard expected != actual else { return nil }
        var out = "screen (\(size)) differs from the expected one (- expected, + actual):\n"
        for i in 0..<max(expected.count, actual.count) {
            let e = i < expected.count ? expected[i] : nil
            let a = i < actual.count ? actual[i] : nil
            let n = String(i + 1).leftPadded(to: 3)
            if e == a {
                out += "  \(n) |\(a ?? "")|\n"
            } else {
                out += "- \(n) " + (e.map { "|\($0)|" } ?? "(no row)") + "\n"
                out += "+ \(n) " + (a.map { "|\($0)|" } ?? "(no row)") + "\n"
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(to n: Int) -> String {
        count >= n ? self : String(repeating: " ", count: n - count) + self
    }
}
