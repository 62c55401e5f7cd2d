#!/usr/bin/env bash
# An explore worker's peak memory over many runs of one file (issue 31:
# flat, at most 80 MB after 10,000 runs). One `chatbench explore-worker`
# process makes run 0, 1, ... as `explore` asks it to; its peak resident
# size is read after each count of runs, each count a fresh process.
# Usage: [BIN=.build/release/chatbench] scripts/bench-explore-memory.sh [FILE] [COUNTS...]
#   default: examples/01-walking-skeleton.chat 100 1000 10000
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${BIN:-.build/debug/chatbench}"
file="${1:-examples/01-walking-skeleton.chat}"
shift || true
counts=("${@:-100 1000 10000}")
[ "$#" -eq 0 ] && counts=(100 1000 10000)
export XDG_DATA_HOME="${XDG_DATA_HOME:-$(mktemp -d)}" XDG_STATE_HOME="${XDG_STATE_HOME:-$(mktemp -d)}"
echo "explore worker peak memory, $file, $bin"
for n in "${counts[@]}"; do
    seq 0 $((n - 1)) | sed 's/^/run /' | /usr/bin/time -f "%M %e" -o /tmp/bench-explore-memory.$$ "$bin" explore-worker "$file" --seed 1 >/dev/null
    read -r kb seconds < /tmp/bench-explore-memory.$$
    printf '%7d runs: peak %6.1f MB  (%s s)\n' "$n" "$(echo "$kb / 1024" | bc -l)" "$seconds"
done
rm -f /tmp/bench-explore-memory.$$
