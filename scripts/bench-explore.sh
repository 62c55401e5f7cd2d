#!/usr/bin/env bash
# Speed of `chatbench explore` and `chatbench shrink` (issue 15), release build:
#   1. runs per second of a 20-line script with --jobs 2 (target: 50 or more);
#   2. seconds to shrink a 200-line failing script (target: under 30).
# Usage: scripts/bench-explore.sh [RUNS]   (default 500)
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
start=$(date +%s.%N)
"$bin" explore "$scratch/twenty.chat" --runs "$runs" --jobs 2 --no-expects --no-shrink --out "$scratch/failures" > "$scratch/explore.out" || true
end=$(date +%s.%N)
cat "$scratch/explore.out"
python3 -c "import sys; r=int(sys.argv[1]); t=float(sys.argv[3])-float(sys.argv[2]); print(f'explore: {r} runs of a 20-line script in {t:.1f} s, {r/t:.0f} runs/s (whole process, --jobs 2)')" "$runs" "$start" "$end"

# 200 lines: padding around a script that fails under a fault.
python3 - "$scratch/padded.chat" <<'PY'
import sys
lines = [f"client new extra{i}" for i in range(60)] + ["use client"]
lines += ["user set alice", "start conversation", "net offline --after 10ms", "send c1 text hi", "expect m1.state == sent"]
lines += ["clock"] * (200 - len(lines))
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
start=$(date +%s.%N)
"$bin" shrink "$scratch/padded.chat" -o "$scratch/small.chat" 2> "$scratch/shrink.err"
end=$(date +%s.%N)
python3 -c "import sys; print(f'shrink: {open(sys.argv[3]).read().strip()}, {float(sys.argv[2])-float(sys.argv[1]):.1f} s')" "$start" "$end" "$scratch/shrink.err"
