import Foundation

// Usage: swift run -c release BurrowBenchmarks [--quick] [insert] [fetch] [edits]
// Prints each scenario's figure beside the raw SQLite C API doing the same work in the same run.
let quick = CommandLine.arguments.contains("--quick")
print("Burrow benchmarks\(quick ? " (quick)" : "") — \(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.physicalMemory >> 30) GiB")
do {
    try StorageBenchmarks(
        levelSize: quick ? 10_000 : 100_000, hugeLevel: quick ? 20_000 : 1_000_000, runs: quick ? 2 : 5,
        edits: quick ? 5 : 30
    ).run(only: Set(CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("-") }))
    print(String(format: "peak resident memory: %.0f MiB", Harness.peakRSS))
} catch {
    print("benchmark failed: \(error)")
    exit(1)
}
