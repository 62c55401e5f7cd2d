#!/usr/bin/env bash
# The test command: the one the README names and CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build && swift test
