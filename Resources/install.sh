#!/usr/bin/env bash
# Installs Burrow like a tool: the release binary, its man page and its bash, zsh and fish completions.
#
#   Resources/install.sh                       # builds, installs under ~/.local
#   PREFIX=/usr/local Resources/install.sh     # anywhere (as root for a system prefix)
#   Resources/install.sh uninstall             # removes exactly what install put there (never an outline)
#
# PREFIX (default ~/.local) and DESTDIR (a staging root for packagers) work as in `make install`.
# BURROW_BINARY=PATH installs that binary instead of building one (the test of this script uses it).
set -euo pipefail

action=${1:-install}
case "$action" in
    install | uninstall) ;;
    -h | --help)
        sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    *)
        echo "install.sh: unknown action '$action' (install or uninstall)" >&2
        exit 2
        ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${PREFIX:-$HOME/.local}
case "$prefix" in
    /*) ;;
    *)
        echo "install.sh: PREFIX must be an absolute path, not '$prefix'" >&2
        exit 2
        ;;
esac
dest=${DESTDIR:-}

# Where each file goes, relative to the prefix; each directory is where the tool that reads it looks by
# default: man finds $PREFIX/share/man for $PREFIX/bin on PATH, bash-completion loads completions/NAME on
# first use, zsh searches site-functions (in $fpath for /usr/local; add ~/.local/share/zsh/site-functions
# to fpath for ~/.local), fish reads vendor_completions.d under its data directories.
files=(
    "bin/burrow"
    "share/man/man1/burrow.1"
    "share/bash-completion/completions/burrow"
    "share/zsh/site-functions/_burrow"
    "share/fish/vendor_completions.d/burrow.fish"
)
sources=(
    ""
    "$root/docs/burrow.1"
    "$root/docs/completions/burrow.bash"
    "$root/docs/completions/burrow.zsh"
    "$root/docs/completions/burrow.fish"
)

if [ "$action" = uninstall ]; then
    for file in "${files[@]}"; do
        target="$dest$prefix/$file"
        if [ -e "$target" ] || [ -L "$target" ]; then
            rm -f "$target"
            echo "removed $target"
        fi
    done
    echo "Burrow is uninstalled from $prefix (outlines, settings and logs are kept)."
    exit 0
fi

binary=${BURROW_BINARY:-}
if [ -z "$binary" ]; then
    # The Swift runtime and Foundation are linked in, so the installed binary runs without the toolchain.
    # Every module, the dependencies' too, reaches concrete generic types' metadata by accessor rather than
    # by demangling, which scans all protocol conformances at each first use (docs/DECISIONS.md, 2026-11-30).
    (cd "$root" && swift build -c release --product burrow --static-swift-stdlib \
        -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
    binary="$root/.build/release/burrow"
fi
if [ ! -x "$binary" ]; then
    echo "install.sh: no program at $binary" >&2
    exit 1
fi
sources[0]=$binary

for i in "${!files[@]}"; do
    target="$dest$prefix/${files[$i]}"
    mode=644
    [ "$i" -eq 0 ] && mode=755
    # install(1) removes the old file before writing, so a running burrow keeps the binary it started with.
    install -D -m "$mode" "${sources[$i]}" "$target"
    echo "installed $target"
done

case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "note: $prefix/bin is not on PATH; add it (e.g. in ~/.profile) to run 'burrow'" ;;
esac
