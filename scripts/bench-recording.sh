#!/usr/bin/env bash
# Speed figures for recording, replay and `chatbench test` (issue 5), with
# the release binary. Prints medians of RUNS runs (default 5).
#
#   scripts/bench-recording.sh            # builds the release binary first
#   RUNS=9 STEPS=10000 scripts/bench-recording.sh
#
# 1. Recording cost per step: the same STEPS-line script run with --db and
#    with --no-record; (recorded - unrecorded) / STEPS.
# 2. Replay rate: `chatbench replay` of that STEPS-step session, steps/s.
# 3. `chatbench test examples/` (all files, in parallel) vs one `chatbench run`
#    of the first example.
# Everything is written under a temporary folder (XDG_* point there too).
source "$(dirname "$0")/bench-lib.sh"

recording_script > "$work/script.chat"

plain=(); recorded=(); replay=()
for run in $(seq "$RUNS"); do
    plain+=("$(elapsed "$bin" run "$work/script.chat" --no-record)")
    recorded+=("$(elapsed "$bin" run "$work/script.chat" --db "$work/bench.sqlite" --name "bench$run")")
    replay+=("$(elapsed "$bin" replay "bench$run" --db "$work/bench.sqlite")")
done
p=$(printf '%s\n' "${plain[@]}" | median)
r=$(printf '%s\n' "${recorded[@]}" | median)
y=$(printf '%s\n' "${replay[@]}" | median)
"$bin" replay bench1 --db "$work/bench.sqlite" | tail -1
printf 'script of %d steps, --no-record: %.3f s (%.1f µs/step)\n' "$STEPS" "$p" "$(echo "$p * 1000000 / $STEPS" | bc -l)"
printf 'script of %d steps, recorded:    %.3f s (%.1f µs/step)\n' "$STEPS" "$r" "$(echo "$r * 1000000 / $STEPS" | bc -l)"
printf 'recording cost: %.1f µs per step (one commit each)\n' "$(echo "($r - $p) * 1000000 / $STEPS" | bc -l)"
printf 'replay of %d steps: %.3f s = %.0f steps/s\n' "$STEPS" "$y" "$(echo "$STEPS / $y" | bc -l)"

if compgen -G "examples/*.chat" >/dev/null; then
    first=$(ls examples/*.chat | head -1)
    count=$(ls examples/*.chat | wc -l)
    one=(); all=()
    for run in $(seq "$RUNS"); do
        one+=("$(elapsed "$bin" run "$first" --no-record)")
        all+=("$(elapsed "$bin" test examples/)")
    done
    printf 'one chatbench run (%s): %.1f ms\n' "$first" "$(echo "$(printf '%s\n' "${one[@]}" | median) * 1000" | bc -l)"
    printf 'chatbench test examples/ (%d files): %.1f ms\n' "$count" "$(echo "$(printf '%s\n' "${all[@]}" | median) * 1000" | bc -l)"
fi
