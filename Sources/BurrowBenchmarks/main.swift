import Foundation

// Usage: swift run -c release BurrowBenchmarks [--quick] [insert] [fetch] [edits] [observe] [undo] [crossprocess]
//        [interchange] [hostile] [startup] [commands] [keys] [memory] [folds] [search] [history] [live] [streaming] [sync] [batch] [background]   (startup, commands, live,
//        streaming and sync need `swift build -c release` for the burrow binary; streaming and sync run only when named;
//        sync needs BURROW_BENCH_PG=postgres://user:password@host:port/postgres, a user that may create databases)
//        BurrowBenchmarks --generate-outline N DIR   (writes the scenarios' outline files, e.g. to load in hnb)
//        BurrowBenchmarks --search-store DB [QUERY...]   (the search scenario's first screens on an existing outline)
// Prints each scenario's figure beside the raw SQLite C API doing the same work in the same run.
if CommandLine.arguments.count == 4 && CommandLine.arguments[1] == "--child-writer" {
    try ObservationBenchmarks.childWriter(path: CommandLine.arguments[2], count: Int(CommandLine.arguments[3])!)
    exit(0)
}
if CommandLine.arguments.count == 4 && CommandLine.arguments[1] == "--raw-load" {
    try StreamingBenchmarks.rawLoad(file: CommandLine.arguments[2], db: CommandLine.arguments[3])
    exit(0)
}
if CommandLine.arguments.count == 3 && CommandLine.arguments[1] == "--child-memory" {
    try AppBenchmarks.childMemory(path: CommandLine.arguments[2])
    exit(0)
}
if CommandLine.arguments.dropFirst().first == "--generate-outline" {
    guard CommandLine.arguments.count == 4, let size = Int(CommandLine.arguments[2]) else {
        print("usage: BurrowBenchmarks --generate-outline N DIR")
        exit(2)
    }
    let generator = OutlineGenerator(size: size), dir = CommandLine.arguments[3]
    do {
        let seconds = try Harness.time { try generator.write(to: dir) }
        print("\(generator.count) items in \(dir) (\(OutlineGenerator.files.joined(separator: ", "))), \(Harness.ms(seconds))")
        exit(0)
    } catch {
        print("cannot write the outline to \(dir): \(error)")
        exit(1)
    }
}
if CommandLine.arguments.count >= 3 && CommandLine.arguments[1] == "--search-store" {
    // The search scenario's first screens on an existing outline (to profile without importing).
    let queries = CommandLine.arguments.count > 3 ? Array(CommandLine.arguments.dropFirst(3)) : ["garden", "zurich", "x"]
    Harness.header()
    try SearchBenchmarks(size: 0, hugeLevel: 0, runs: 15).onStore(CommandLine.arguments[2], queries: queries)
    exit(0)
}
let quick = CommandLine.arguments.contains("--quick")
print(
    "Burrow benchmarks\(quick ? " (quick)" : "") — \(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.physicalMemory >> 30) GiB"
)
Harness.header()
let only = Set(CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("-") })
do {
    try StorageBenchmarks(
        levelSize: quick ? 10_000 : 100_000, hugeLevel: quick ? 20_000 : 1_000_000, runs: quick ? 2 : 5,
        edits: quick ? 5 : 30
    ).run(only: only)
    try ObservationBenchmarks(
        hugeLevel: quick ? 20_000 : 1_000_000, edits: quick ? 5 : 30, subtree: quick ? (10, 99) : (100, 99),
        crossProcessCommits: quick ? 10 : 100
    ).run(only: only)
    try InterchangeBenchmarks(size: quick ? 10_000 : 100_000, runs: quick ? 2 : 5).run(only: only)
    try HostileInputBenchmarks(scales: quick ? [1] : [1, 4], runs: quick ? 2 : 5).run(only: only)
    try AppBenchmarks(
        sizes: quick ? [10_000, 20_000] : [10_000, 100_000, 1_000_000], keysLevel: quick ? 10_000 : 100_000,
        memoryLevel: quick ? 20_000 : 1_000_000, runs: quick ? 2 : 5, keyPresses: quick ? 500 : 5_000
    ).run(only: only)
    try CommandBenchmarks(size: quick ? 10_000 : 100_000, runs: quick ? 5 : 20).run(only: only)
    try FoldBenchmarks(size: quick ? 10_000 : 100_000, hugeLevel: quick ? 20_000 : 100_000, runs: quick ? 2 : 5, keyPresses: quick ? 500 : 5_000)
        .run(only: only)
    try HistoryBenchmarks(branches: quick ? 10 : 100, leaves: 999, runs: quick ? 2 : 5, edits: quick ? 50 : 8000).run(only: only)
    try SearchBenchmarks(size: quick ? 10_000 : 100_000, hugeLevel: quick ? 20_000 : 1_000_000, runs: quick ? 2 : 5).run(only: only)
    try AgendaBenchmarks(size: quick ? 50_000 : 1_000_000, runs: quick ? 3 : 5).run(only: only)
    try LiveBenchmarks(adds: quick ? 20 : 200, idleSeconds: quick ? 2 : 10).run(only: only)
    try StreamingBenchmarks(size: quick ? 100_000 : 1_000_000, runs: quick ? 2 : 3).run(only: only)
    try BatchBenchmarks(rows: quick ? 10_000 : 100_000, runs: quick ? 3 : 7).run(only: only)
    try BackgroundBenchmarks(rows: quick ? 20_000 : 100_000, slice: 1_000, runs: quick ? 1 : 3).run(only: only)
    try SyncBenchmarks(queued: 1000, runs: quick ? 1 : 3, edits: quick ? 20 : 200, idleItems: quick ? 10_000 : 100_000, idleSeconds: quick ? 10 : 30)
        .run(only: only)
    print(String(format: "peak resident memory: %.0f MiB", Harness.peakRSS))
} catch {
    print("benchmark failed: \(error)")
    exit(1)
}
