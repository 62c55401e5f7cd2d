#!/usr/bin/env bash
# Issue 27: what the SDK's flight recorder adds to a send, over real
# sockets. Starts `chatbench serve` on loopback, then runs a script of
# SENDS `send` lines against it, RUNS times with the recorder off and on
# (CHATBENCH_DIAGNOSTICS_DIR: each workbench client records as an app with
# `diagnostics` set would), interleaved, and prints the medians, the ratio,
# and the recording's size per 1,000 sends. With CALLGRIND=1 it also counts
# the instructions of one run each way under valgrind's callgrind.
#
#   scripts/bench-recorder.sh                 # 1,000 sends, 5 runs each way
#   SENDS=2000 RUNS=7 scripts/bench-recorder.sh
#   NO_BUILD=1 CHATBENCH=/path/to/chatbench scripts/bench-recorder.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SENDS=${SENDS:-1000}
RUNS=${RUNS:-5}
if [[ -z "${NO_BUILD:-}" && -z "${CHATBENCH:-}" ]]; then
    swift build -c release --product chatbench >&2
    CHATBENCH=.build/release/chatbench
fi
source scripts/serve-lib.sh
dir=$(mktemp -d)
cleanup() {
    [[ -n "${serve_pid:-}" ]] && kill "$serve_pid" 2>/dev/null || true
    rm -rf "$dir"
}
trap cleanup EXIT

{
    echo "user set alice"
    echo "start conversation"
    for ((i = 1; i <= SENDS; i++)); do echo "send c1 text \"message number $i of the benchmark\""; done
    echo "settle"
} > "$dir/sends.chat"

run() { # off|on -> seconds
    local mode=$1 start end
    rm -rf "$dir/diag" && mkdir -p "$dir/diag"
    start=$(date +%s.%N)
    if [[ $mode == on ]]; then
        CHATBENCH_DIAGNOSTICS_DIR="$dir/diag" "$CHATBENCH" --no-record --server "$serve_url" < "$dir/sends.chat" > "$dir/out"
    else
        "$CHATBENCH" --no-record --server "$serve_url" < "$dir/sends.chat" > "$dir/out"
    fi
    end=$(date +%s.%N)
    grep -q "sent" "$dir/out" || { echo "no message was sent: see $dir/out" >&2; exit 1; }
    echo "$end - $start" | bc
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

start_serve "$dir" --db "$dir/server.sqlite"
off=() on=()
for ((r = 0; r < RUNS; r++)); do
    off+=("$(run off)")
    on+=("$(run on)")
done
m_off=$(printf '%s\n' "${off[@]}" | median)
m_on=$(printf '%s\n' "${on[@]}" | median)
size=$(stat -c %s "$dir/diag/client.sqlite")
wal=$(stat -c %s "$dir/diag/client.sqlite-wal" 2>/dev/null || echo 0)
echo "== $SENDS sends over loopback, median of $RUNS interleaved runs each way"
awk -v off="$m_off" -v on="$m_on" -v n="$SENDS" 'BEGIN {
    printf "recorder off: %.3f s (%.0f µs per send)\n", off, off / n * 1e6
    printf "recorder on:  %.3f s (%.0f µs per send)\n", on, on / n * 1e6
    printf "added: %+.1f %%\n", (on / off - 1) * 100 }'
awk -v s="$size" -v w="$wal" -v n="$SENDS" 'BEGIN {
    printf "recording: %d bytes (+ %d in its WAL), %.0f kB per 1,000 sends\n", s, w, (s + w) / n * 1000 / 1000 }'

if [[ -n "${CALLGRIND:-}" ]]; then
    strip --strip-debug -o "$dir/chatbench" "$CHATBENCH"
    for mode in off on; do
        rm -rf "$dir/diag" && mkdir -p "$dir/diag"
        diagnostics=""
        [[ $mode == on ]] && diagnostics="$dir/diag"
        CHATBENCH_DIAGNOSTICS_DIR="$diagnostics" valgrind --tool=callgrind --callgrind-out-file="$dir/cg.$mode" \
            "$dir/chatbench" --no-record --server "$serve_url" < "$dir/sends.chat" > /dev/null 2> "$dir/cg.$mode.log"
        echo "instructions, recorder $mode: $(grep -E '^(summary|totals):' "$dir/cg.$mode" | head -1 | awk '{print $2}')"
    done
fi
