import Foundation
import Logging
import TestSupport
import Testing

@testable import BurrowApp

/// The log's time stamps are written by hand (`ISO8601DateFormatter` loads ICU on its first use, at the
/// outliner's start): they must be what the formatter writes, in any time zone.
@Suite struct FileLogHandlerTests {
    @Test(arguments: [1, 2] as [UInt64]) func timeStampsAreTheFormattersOwn(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        // UTC, whole hours both ways, and the zones a quarter or half an hour off (Nepal, Newfoundland).
        let offsets = [0, 3600, -3600, 5 * 3600 + 45 * 60, -(3 * 3600 + 30 * 60), 14 * 3600, -12 * 3600]
        for _ in 0..<500 {
            // 1906 to 2100; a quarter of a millisecond from the nearest (the formatter rounds to it; a half
            // would round either way by its binary fraction), 999.75 ms included: the next second's .000.
            let seconds = rng.below(6_102_444_800) - 2_000_000_000
            let nanoseconds = rng.below(1000) * 1_000_000 + (rng.below(2) == 0 ? 250_000 : 750_000)
            let offset = offsets[rng.below(offsets.count)]
            formatter.timeZone = TimeZone(secondsFromGMT: offset)
            let date = Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
            #expect(
                FileLogHandler.timestamp(seconds: seconds, nanoseconds: nanoseconds, utcOffset: offset) == formatter.string(from: date),
                "\(seconds).\(nanoseconds) at \(offset)")
        }
        // The carry, which the random instants reach about once in 2,000.
        #expect(FileLogHandler.timestamp(seconds: 59, nanoseconds: 999_750_000, utcOffset: 0) == "1970-01-01T00:01:00.000Z")
        #expect(FileLogHandler.timestamp(seconds: 59, nanoseconds: 999_250_000, utcOffset: -1800) == "1969-12-31T23:30:59.999-00:30")
        // Before 1970 the second is the one below (a clock set before the epoch).
        #expect(FileLogHandler.timestamp(seconds: -1, nanoseconds: 500_000_000, utcOffset: 0) == "1969-12-31T23:59:59.500Z")
    }

    @Test func aLineNamesItsTimeLevelLabelAndMessage() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("burrow.log")
        var handler = FileLogHandler(label: "burrow", sink: try FileLogHandler.Sink(path: path))
        handler.metadata = ["b": "2", "a": "1"]
        handler.log(event: LogEvent(level: .info, message: "started", metadata: nil, source: "", file: "", function: "", line: 0))
        let line = try String(contentsOfFile: path, encoding: .utf8)
        let match = try #require(line.wholeMatch(of: /(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})(Z|[+-]\d\d:\d\d) info burrow: started a=1 b=2\n/))
        // The stamp is now, to the second or so.
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let stamped = try #require(formatter.date(from: String(match.1) + String(match.2)))
        #expect(abs(stamped.timeIntervalSinceNow) < 60)
    }
}
