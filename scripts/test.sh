#!/usr/bin/env bash
# The test command: the one the README names and CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."

# Tests and the examples never write into the real home: recordings and
# history go to a temporary folder.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export XDG_DATA_HOME="$scratch/data" XDG_STATE_HOME="$scratch/state"

swift build && swift test
# examples/ is a folder of transcripts, run as tests (SPEC W8), and the
# README's tour is one too (its ```transcript blocks).
"$(swift build --show-bin-path)/chatbench" test examples/ README.md
# The same transcripts against a real server over loopback (issue 6's
# conformance): a fresh in-process `chatbench serve` per file; files that
# move virtual time say `# embedded-only:` and are skipped.
"$(swift build --show-bin-path)/chatbench" test --server fresh examples/
