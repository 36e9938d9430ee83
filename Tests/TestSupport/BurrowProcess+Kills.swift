/// What `BurrowProcess.killRuns` did: runs started, runs killed, and of those, the ones killed after
/// writing more than a page and less than a whole run writes (in the middle of writing, not before the
/// store was touched). Printed by kill tests, so that a run shows how often the case that matters happened.
public struct Kills: CustomStringConvertible, Sendable {
    public var runs = 0, killed = 0, inTheWrite = 0
    public var description: String { "\(killed) of \(runs) runs killed, \(inTheWrite) in the middle of writing" }
}

extension BurrowProcess {
    /// Runs `burrow ARGS(run)` and kills it with SIGKILL once it has written a random share of `whole` bytes
    /// (what a whole run writes), until `wanted` runs were killed or `attempts` ran. A run that ended before
    /// its kill draws the next threshold below its own: on a loaded machine the watcher wakes late and the
    /// last bytes, a commit's, come in one burst, so thresholds near the end are often missed (CI once saw
    /// four misses in a row). `before` runs before each run; `after` after it, given what happened.
    public static func killRuns(
        _ args: (Int) -> [String], whole: Int, wanted: Int, attempts: Int = 8, rng: inout SeededRandom,
        before: () throws -> Void = {}, after: (String) throws -> Void = { _ in }
    ) throws -> Kills {
        var kills = Kills()
        var top = whole + whole / 10
        while kills.killed < wanted && kills.runs < attempts {
            try before()
            let threshold = rng.below(max(top, 1))
            let command = args(kills.runs)
            let end = try killed(command, after: threshold)
            kills.runs += 1
            if end.killed {
                kills.killed += 1
                if end.written > 4096 && end.written < whole { kills.inTheWrite += 1 }
            } else {
                top = threshold
            }
            let how = end.killed ? "killed" : "not killed"
            try after("\(command[0]) \(kills.runs) \(how) after \(threshold) bytes (\(end.written) seen)")
        }
        return kills
    }

    /// `killRuns` of the same command every time.
    public static func killRuns(
        _ args: [String], whole: Int, wanted: Int, attempts: Int = 8, rng: inout SeededRandom,
        before: () throws -> Void = {}, after: (String) throws -> Void = { _ in }
    ) throws -> Kills {
        try killRuns({ _ in args }, whole: whole, wanted: wanted, attempts: attempts, rng: &rng, before: before, after: after)
    }
}
