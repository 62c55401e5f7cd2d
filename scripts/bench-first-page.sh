#!/usr/bin/env bash
# Issue 31's first-page row: how long the first page of a conversation of
# 100,000 messages takes to show, and the next one. Alice's cache holds the
# conversation (she watched it while the agent said MESSAGES - 1 messages);
# then, OPENS times, she opens another watcher on it (`watch items c1`, its
# first page from the cache, then the server's), loads one more page
# (`more`), and stops it.
#
# Wall time: `timing on` prints each step's wall time; the script prints the
# median over OPENS of `watch` and of `more`. Instructions (CALLGRIND=1):
# valgrind's callgrind counts the whole run with the OPENS cycles and
# without them; the difference over OPENS is one cycle's instructions,
# which do not depend on the host's load.
#
#   scripts/bench-first-page.sh                      # MESSAGES=100000 OPENS=20
#   RECORD=1 scripts/bench-first-page.sh           # recorded (a --db in the temporary folder)
#   CALLGRIND=1 OPENS=5 scripts/bench-first-page.sh  # instruction counts too
#   BIN=/path/to/chatbench scripts/bench-first-page.sh
set -euo pipefail
MESSAGES=${MESSAGES:-100000}
OPENS=${OPENS:-20}
source "$(dirname "$0")/bench-lib.sh"
export NO_COLOR=1

{
    echo "user set alice"
    echo "start conversation"
    echo "send c1 text \"hello\""
    echo "w1 = watch items c1"
    echo "agent say c1 \"message\" --times $((MESSAGES - 1))"
    echo "expect c1.count == $MESSAGES"
} > "$work/fill.chat"
{
    cat "$work/fill.chat"
    echo "timing on"
    for ((n = 1; n <= OPENS; n++)); do
        echo "o$n = watch items c1"
        echo "more o$n"
        echo "stop o$n"
    done
} > "$work/opens.chat"

record=(--no-record)
if [[ -n "${RECORD:-}" ]]; then record=(--db "$work/recording.sqlite"); fi
"$bin" run "$work/opens.chat" "${record[@]}" > "$work/out" 2>&1 || {
    echo "chatbench failed:" >&2; tail -5 "$work/out" >&2; exit 1
}
grep -q "^ok: c1.count == $MESSAGES" "$work/out" || { echo "the cache does not hold $MESSAGES messages" >&2; exit 1; }
# `run` does not echo the input: after `timing is on`, the timing lines
# come in threes (watch, more, stop). Wall times in milliseconds.
wall_ms() { # K: the wall times of the Kth step of each cycle (1 watch, 2 more)
    awk -v k="$1" '
        /^timing is on$/ { on = 1; next }
        on && /^virtual .*, wall / {
            n++
            if ((n - 1) % 3 != k - 1) next
            v = $NF
            if (v ~ /ms$/) { sub(/ms$/, "", v) } else { sub(/s$/, "", v); v = v * 1000 }
            print v
        }' "$work/out"
}
watch=$(wall_ms 1 | median)
more=$(wall_ms 2 | median)
printf 'first page of %d messages, median of %d%s: watch items %.2f ms, more %.2f ms (load %s)\n' \
    "$MESSAGES" "$OPENS" "${RECORD:+, recorded}" "$watch" "$more" "$(cut -d' ' -f1 /proc/loadavg)"

if [[ -n "${CALLGRIND:-}" ]]; then
    # valgrind 3.19 cannot read the release binary's DWARF: profile a copy
    # without it (the symbols stay).
    objcopy --strip-debug "$bin" "$work/chatbench-nodebug"
    count() { # SCRIPT: instructions of a whole run
        valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$work/chatbench-nodebug" run "$1" --no-record > /dev/null 2> "$work/cg.err"
        grep -o 'Collected : [0-9]*' "$work/cg.err" | grep -o '[0-9]*$'
    }
    with=$(count "$work/opens.chat")
    without=$(count "$work/fill.chat")
    printf 'instructions per watch + more + stop: %.3f M (%d with, %d without, %d cycles)\n' \
        "$(echo "($with - $without) / $OPENS / 1000000" | bc -l)" "$with" "$without" "$OPENS"
fi
