#!/usr/bin/env bash
# Speed of `chatbench explore` and `chatbench shrink` (issue 15), release build:
#   1. runs per second of a 20-line script with --jobs 2 (target: 50 or more);
#   2. seconds to shrink a 200-line failing script (target: under 30).
# Usage: [REPEAT=3] scripts/bench-explore.sh [RUNS]   (default 500)
runs="${1:-500}"
source "$(dirname "$0")/bench-lib.sh"
scratch="$work"
export NO_COLOR=1

# 20 lines: two conversations, sends, a watcher, the other side, expects.
cat > "$scratch/twenty.chat" <<'SCRIPT'
user set alice
watch conversations
start conversation --title "one"
send c1 text "hello"
watch items c1
agent say c1 "hi, how can I help?"
send c1 text "a question"
agent typing c1 on
agent read c1
send c1 text "another"
start conversation --title "two"
send c2 text "second thread"
agent say c2 "noted"
send c2 text "thanks"
more w2
expect w2.count >= 1
expect server.messages(c1).count >= 1
clock advance 10s
send c1 text "bye"
expect c1.local == false
SCRIPT
# Each measure REPEAT times (default 3), medians; wall time, and the CPU time
# (user + sys) of the process and its workers: on a shared machine the wall
# time says how busy it is, the CPU time what explore costs.
repeat="${REPEAT:-3}"
TIMEFORMAT='%R %U %S'
measure() { { time "$@" >/dev/null 2>&1 || true; } 2>&1 | awk '{ print $1, $2 + $3 }'; }
report() { # NAME RUNS (0: a single task) < "wall cpu" lines
    local lines wall cpu
    lines=$(cat)
    wall=$(cut -d' ' -f1 <<< "$lines" | median)
    cpu=$(cut -d' ' -f2 <<< "$lines" | median)
    if [ "$2" -gt 0 ]; then
        awk -v name="$1" -v n="$2" -v w="$wall" -v c="$cpu" -v k="$repeat" \
            'BEGIN { printf "%s: median of %d: %.1f s wall, %.0f runs/s; %.1f s CPU, %.0f runs/s on 2 idle cores\n", name, k, w, n / w, c, 2 * n / c }'
    else
        awk -v name="$1" -v w="$wall" -v c="$cpu" -v k="$repeat" 'BEGIN { printf "%s: median of %d: %.1f s wall; %.1f s CPU\n", name, k, w, c }'
    fi
}
for _ in $(seq "$repeat"); do
    measure "$bin" explore "$scratch/twenty.chat" --runs "$runs" --jobs 2 --no-expects --no-shrink --out "$scratch/failures"
done | report "explore: $runs runs of a 20-line script, --jobs 2" "$runs"

# 200 lines: padding around a script that fails under a fault.
python3 - "$scratch/padded.chat" <<'PY'
import sys
lines = [f"client new extra{i}" for i in range(60)] + ["use client"]
lines += ["user set alice", "start conversation", "net offline --after 10ms", "send c1 text hi", "expect m1.state == sent"]
lines += ["clock"] * (200 - len(lines))
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
"$bin" shrink "$scratch/padded.chat" -o "$scratch/small.chat" 2> "$scratch/shrink.err" || true
echo "shrink: $(cat "$scratch/shrink.err")"
for _ in $(seq "$repeat"); do
    measure "$bin" shrink "$scratch/padded.chat" -o "$scratch/small.chat"
done | report "shrink of a 200-line failing script" 0
