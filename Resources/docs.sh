#!/usr/bin/env bash
# Builds ObjectGraph's API reference with DocC into .build/docs/ObjectGraph.doccarchive, with no package
# dependency (no swift-docc-plugin): the compiler writes the library's symbol graph, and the toolchain's own
# `docc` turns it and the catalog (Sources/ObjectGraph/ObjectGraph.docc: the landing page) into the archive.
#
#   Resources/docs.sh            # from anywhere in the checkout; DOCC=/path/to/docc if it is not beside swift
#
# Fails on any warning of docc's: a ``Symbol`` link of the landing page or of a doc comment that resolves to
# nothing, say. The build has a scratch folder of its own (.build/docs-build): the symbol-graph flags, given to
# every module, would otherwise make the next `swift build` or `swift test` compile everything again. Its first
# run compiles ObjectGraph and GRDB (a few minutes on 2 cores); later runs what changed, and emit ObjectGraph's
# module again.
set -euo pipefail

cd "$(dirname "$0")/.."
scratch=.build/docs-build
emitted="$PWD/$scratch/symbol-graphs"   # what the compiler writes, for every module it compiles
graphs="$PWD/$scratch/ObjectGraph-graphs"   # ObjectGraph's alone, which docc reads
archive=.build/docs/ObjectGraph.doccarchive

docc=${DOCC:-}
if [[ -z "$docc" ]]; then
    docc="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
    [[ -x "$docc" ]] || docc=$(command -v docc || true)
fi
[[ -n "$docc" && -x "$docc" ]] || {
    echo "docs.sh: no docc beside swift or on PATH; set DOCC=/path/to/docc" >&2
    exit 1
}

# The compiler writes a module's graphs when it emits the module, and leaves one whose text has not changed as it
# was: ObjectGraph's old graphs and its module go first, so that the build emits the module again (seconds, when
# nothing else changed) and every graph read below is this build's.
mkdir -p "$emitted"
rm -f "$emitted"/ObjectGraph.symbols.json "$emitted"/ObjectGraph@*.symbols.json "$scratch"/debug/Modules/ObjectGraph.swiftmodule
swift build --scratch-path "$scratch" --target ObjectGraph \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$emitted"

# ObjectGraph's graph, with those of its extensions of other modules (ObjectGraph@Swift…); GRDB's stay out.
rm -rf "$graphs"
mkdir -p "$graphs"
shopt -s nullglob
cp "$emitted"/ObjectGraph.symbols.json "$emitted"/ObjectGraph@*.symbols.json "$graphs/"

rm -rf "$archive"
mkdir -p "$(dirname "$archive")"
"$docc" convert Sources/ObjectGraph/ObjectGraph.docc \
    --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name ObjectGraph \
    --fallback-bundle-identifier org.burrow.ObjectGraph \
    --output-path "$archive" \
    --warnings-as-errors

echo "ObjectGraph's documentation: $PWD/$archive"
echo "(a static site: serve that folder, e.g. python3 -m http.server -d $PWD/$archive, and open /documentation/objectgraph)"
