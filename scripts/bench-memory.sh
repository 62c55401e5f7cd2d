#!/usr/bin/env bash
# Issue 17's memory row: peak RSS of a session in which a client ends with a
# 100,000-message conversation in its cache. Alice sends one message,
# watches the conversation (`watch items c1`, so the realtime connection is
# open and every message reaches her cache as it arrives), and the agent
# says the rest, all in one step (`agent say c1 … --times N`, the case where
# every per-step buffer is at its largest) or, with CHUNK, in steps of
# CHUNK messages. The last line checks that the cache holds them all.
#
# Peak RSS is `/usr/bin/time -f %M` (kB, the kernel's high-water mark) of
# `chatbench run SCRIPT --no-record`; the baseline is the same script
# without the `agent say` lines. Prints the median of RUNS runs of each, and
# (peak - baseline) / MESSAGES as bytes per message.
#
#   scripts/bench-memory.sh                    # MESSAGES=100000 RUNS=3, one step
#   CHUNK=1000 scripts/bench-memory.sh         # in 100 steps of 1,000
#   RECORD=1 scripts/bench-memory.sh           # recorded (a --db in a temporary folder)
#   NO_BUILD=1 BIN=/path/to/chatbench scripts/bench-memory.sh
set -euo pipefail
cd "$(dirname "$0")/.."
MESSAGES=${MESSAGES:-100000}
RUNS=${RUNS:-3}
CHUNK=${CHUNK:-$((MESSAGES - 1))}
BIN=${BIN:-.build/release/chatbench}
if [[ -z "${NO_BUILD:-}" ]]; then
    swift build -c release --product chatbench >&2
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export XDG_DATA_HOME="$dir/data" XDG_STATE_HOME="$dir/state" NO_COLOR=1

{
    echo "user set alice"
    echo "start conversation"
    echo "send c1 text \"hello\""
    echo "watch items c1"
} > "$dir/baseline.chat"
{
    cat "$dir/baseline.chat"
    for ((said = 1; said < MESSAGES; said += CHUNK)); do
        n=$((MESSAGES - said < CHUNK ? MESSAGES - said : CHUNK))
        echo "agent say c1 \"message\" --times $n"
    done
    echo "expect c1.count == $MESSAGES"
} > "$dir/messages.chat"

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
peak() { # SCRIPT RUN: prints the peak RSS in kB
    local record=(--no-record)
    if [[ -n "${RECORD:-}" ]]; then record=(--db "$dir/rec-$(basename "$1" .chat)-$2.sqlite"); fi
    /usr/bin/time -f %M -o "$dir/time" "$BIN" run "$1" "${record[@]}" > "$dir/out" 2>&1 || {
        echo "chatbench failed on $1:" >&2; tail -5 "$dir/out" >&2; exit 1
    }
    if [[ "$1" == *messages.chat ]] && ! grep -q "^ok: c1.count == $MESSAGES" "$dir/out"; then
        echo "the cache does not hold $MESSAGES messages:" >&2; grep -v '^  \[' "$dir/out" | tail -5 >&2; exit 1
    fi
    tail -1 "$dir/time"
}
base=() full=()
for ((r = 1; r <= RUNS; r++)); do
    base+=("$(peak "$dir/baseline.chat" "$r")")
    full+=("$(peak "$dir/messages.chat" "$r")")
done
b=$(printf '%s\n' "${base[@]}" | median)
f=$(printf '%s\n' "${full[@]}" | median)
echo "peak RSS, median of $RUNS runs (kB): baseline ${base[*]}; $MESSAGES messages (steps of $CHUNK) ${full[*]}"
printf 'baseline %.1f MB, %d messages %.1f MB, %.0f bytes per message\n' \
    "$(echo "$b / 1024" | bc -l)" "$MESSAGES" "$(echo "$f / 1024" | bc -l)" "$(echo "($f - $b) * 1024 / $MESSAGES" | bc -l)"
