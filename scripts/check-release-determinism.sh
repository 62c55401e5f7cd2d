#!/usr/bin/env bash
# Do a release build's transcripts equal the debug build's (W4)? The
# examples' expected output is what a debug build prints; this builds
# chatbench in release mode and runs every embedded example with it.
# Not part of the test command (a release build takes 15-20 minutes on a
# 2-core machine); run it after a change to the world's scheduling or its
# randomness. Usage: scripts/check-release-determinism.sh [BIN]
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-}"
if [[ -z "$bin" ]]; then
    swift build -c release --product chatbench
    bin=".build/release/chatbench"
fi
state="$(mktemp -d)"
trap 'rm -rf "$state"' EXIT
XDG_DATA_HOME="$state/data" XDG_STATE_HOME="$state/state" "$bin" test examples/
