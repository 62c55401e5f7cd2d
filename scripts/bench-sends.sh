#!/usr/bin/env bash
# Issue 2: a script of N `send` lines in one conversation (default 10,000)
# must run in <= 2 s in release. Builds the release binary, generates the
# scripts (plain, and with `watch items c1` + `watch conversations` active)
# and reports the median of 5 runs (hyperfine if installed, else a loop).
#
#   scripts/bench-sends.sh            # 10,000 sends
#   SENDS=2000 RUNS=3 scripts/bench-sends.sh
#   NO_BUILD=1 BIN=/path/to/chatbench scripts/bench-sends.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SENDS=${SENDS:-10000}
RUNS=${RUNS:-5}
BIN=${BIN:-.build/release/chatbench}
if [[ -z "${NO_BUILD:-}" ]]; then
    swift build -c release --product chatbench >&2
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

generate() { # FILE LINES-BEFORE-THE-SENDS...
    local file=$1; shift
    {
        echo "user set alice"
        echo "start conversation"
        for line in "$@"; do echo "$line"; done
        for ((i = 1; i <= SENDS; i++)); do echo "send c1 text \"message $i\""; done
    } > "$file"
}
generate "$dir/sends.chat"
generate "$dir/sends-watched.chat" "watch items c1" "watch conversations"

for script in sends sends-watched; do
    file="$dir/$script.chat"
    echo "== $SENDS sends ($script), median of $RUNS runs"
    "$BIN" --no-record < "$file" > "$dir/$script.out"
    if ! grep -q "sent" "$dir/$script.out"; then echo "no message was sent: see the output" >&2; exit 1; fi
    if command -v hyperfine > /dev/null; then
        hyperfine --runs "$RUNS" --warmup 0 --style basic --export-json "$dir/$script.json" \
            "$BIN --no-record < $file > /dev/null" >&2
        python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; print(f'median {r[\"median\"]:.3f} s, {r[\"median\"]/$SENDS*1e6:.0f} µs per send')" "$dir/$script.json"
    else
        times=()
        for ((r = 0; r < RUNS; r++)); do
            start=$(date +%s.%N)
            "$BIN" --no-record < "$file" > /dev/null
            times+=("$(echo "$(date +%s.%N) - $start" | bc)")
        done
        printf '%s\n' "${times[@]}" | sort -n | awk -v n="$SENDS" '{a[NR]=$1} END {m=a[int((NR+1)/2)]; printf "median %.3f s, %.0f µs per send\n", m, m/n*1e6}'
    fi
done
