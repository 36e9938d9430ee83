#!/usr/bin/env bash
# Installs Burrow like a tool: the release binary, its man page and its bash, zsh and fish completions.
#
#   Resources/install.sh                       # builds, installs under ~/.local
#   PREFIX=/usr/local Resources/install.sh     # anywhere (as root for a system prefix)
#   Resources/install.sh uninstall             # removes exactly what install put there (never an outline)
#   Resources/install.sh build [PRODUCT...]    # only builds, as install does (burrow unless named)
#
# PREFIX (default ~/.local) and DESTDIR (a staging root for packagers) work as in `make install`.
# BURROW_BINARY=PATH installs that binary instead of building one (the test of this script uses it).
# BURROW_PIE=1 builds a position-independent executable (the default is not, for a faster start).
set -euo pipefail

action=${1:-install}
case "$action" in
    install | uninstall | build) ;;
    -h | --help)
        sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    *)
        echo "install.sh: unknown action '$action' (install, uninstall or build)" >&2
        exit 2
        ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)

# The release build's flags, into the array `flags`:
# - the Swift runtime and Foundation linked in, so the installed binary runs without the toolchain;
# - every module, the dependencies' too, reaches concrete generic types' metadata by accessor rather than
#   by demangling, which scans all protocol conformances at each first use (docs/DECISIONS.md, 2026-11-30);
# - no `$ORIGIN` run path: an installed binary loads no library from the folder it sits in;
# - linked by the toolchain's lld, with packed relative relocations where glibc reads them (2.36 on): the
#   loader read 3 MB of relocation records at every start, now 45 KB. The binary then needs glibc 2.36 or
#   later: build it on (or for) the glibc it will run with, as a package is built;
# - a position-dependent executable (not PIE) where lld links it: the loader applied 150,000 relative
#   relocations to the image at every start and the kernel copied each page they wrote, 1.4 ms of every
#   `burrow` process (`--version` 4.6 → 3.2 ms, `add` 10.5 → 9.2 ms). The image then sits at a fixed
#   address (its stack, heap and libraries are still placed at random): BURROW_PIE=1 keeps it a PIE
#   (docs/DECISIONS.md, 2026-12-04);
# - SQLite and libstdc++ linked in where their archives are (libsqlite3-dev, GCC's libstdc++): the loader
#   bound 3,300 of their symbols at every start (DECISIONS, 2026-11-30). SwiftPM looks in the folder of links
#   to them before the system's, which would give the shared libraries.
release_flags() {
    flags=(--static-swift-stdlib --disable-local-rpath -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
    local toolchain glibc archives lib found
    toolchain=$(dirname "$(readlink -f "$(command -v swift)")")
    if [ -x "$toolchain/ld.lld" ]; then
        flags+=(-Xswiftc -use-ld=lld)
        glibc=$( (getconf GNU_LIBC_VERSION 2>/dev/null || true) | awk '{print $2}')
        if [ -n "$glibc" ] && [ "$(printf '%s\n2.36\n' "$glibc" | sort -V | head -n1)" = 2.36 ]; then
            flags+=(-Xlinker -z -Xlinker pack-relative-relocs)
        fi
        [ "${BURROW_PIE:-0}" = 1 ] || flags+=(-Xlinker --no-pie)
    fi
    archives="$root/.build/static-libraries"
    mkdir -p "$archives"
    for lib in libsqlite3.a libstdc++.a; do
        found=$("$toolchain/clang" -print-file-name="$lib" 2>/dev/null || true)
        if [ "${found#/}" != "$found" ] && [ -f "$found" ]; then
            ln -sfn "$found" "$archives/$lib"
        else
            rm -f "$archives/$lib"
        fi
    done
    flags+=(-Xswiftc -L -Xswiftc "$archives")
}

if [ "$action" = build ]; then
    shift
    release_flags
    products=("$@")
    [ ${#products[@]} -eq 0 ] && products=(burrow)
    for product in "${products[@]}"; do
        (cd "$root" && swift build -c release --product "$product" "${flags[@]}")
    done
    exit 0
fi
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
    release_flags
    (cd "$root" && swift build -c release --product burrow "${flags[@]}")
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
