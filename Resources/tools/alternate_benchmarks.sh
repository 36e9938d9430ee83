#!/usr/bin/env bash
# Runs the benchmark of two checkouts in turn (old, new, old, new, …) so a slow stretch of a shared machine
# hits both alike, then prints the median of each line for each side.
# Usage: Resources/tools/alternate_benchmarks.sh OLD_CHECKOUT NEW_CHECKOUT RUNS SCENARIO… [> report]
# Both checkouts must be built first: `swift build -c release` in each.
set -euo pipefail
old=$1 new=$2 runs=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp)
for i in $(seq "$runs"); do
    for side in old new; do
        dir=$old
        [ "$side" = new ] && dir=$new
        echo "### $side run $i" >> "$out"
        (cd "$dir" && ./.build/release/BurrowBenchmarks "$@" 2>&1) >> "$out"
    done
done
cat "$out"
python3 "$here/benchmark_medians.py" "$out"
rm -f "$out"
