#!/usr/bin/env bash
# Regenerates docs/burrow.1 and docs/completions/ from the command definitions (BurrowCommands), and
# docs/KEYMAP.md from the keymap (BurrowApp).
# A test fails when they are stale: run this after changing a command, option or help text.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product burrow
for shell in bash zsh fish; do
    .build/debug/burrow --generate-completion-script "$shell" > "docs/completions/burrow.$shell"
done
swift package --allow-writing-to-directory docs generate-manual --configuration debug \
    --date 2026-11-22 --authors "The Burrow authors" -o docs
# docs/KEYMAP.md from Keymap.default (BurrowApp).
BURROW_REGENERATE_DOCS=1 swift test --filter BurrowAppTests.KeymapTests/keymapDocumentIsCurrent > /dev/null
