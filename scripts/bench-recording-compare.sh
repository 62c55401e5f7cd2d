#!/usr/bin/env bash
# Recording cost per step of two chatbench binaries, run interleaved so that
# both meet the same machine load (issue 17): the script of
# bench-recording.sh, with --no-record and with --db, then a replay, for A then
# B in each of RUNS runs (default 5). Prints medians of the wall time and of
# the CPU time (user + sys, from getrusage) per step.
#
#   scripts/bench-recording-compare.sh BEFORE [AFTER]   # AFTER: this tree's release binary
#   RUNS=25 STEPS=5000 scripts/bench-recording-compare.sh /tmp/chatbench-main
source "$(dirname "$0")/bench-lib.sh"

A=${1:?usage: bench-recording-compare.sh BEFORE [AFTER]}
B=${2:-$bin}
# Wall and CPU time of one run, in seconds: "wall cpu".
timed() {
    python3 -c '
import resource, subprocess, sys, time
start = time.perf_counter()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
wall = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{wall:.6f} {usage.ru_utime + usage.ru_stime:.6f}")' "$@"
}

recording_script > "$work/script.chat"

for run in $(seq "$RUNS"); do
    for which in A B; do
        binary=${!which}
        echo "$which plain $(timed "$binary" run "$work/script.chat" --no-record)" >> "$work/times"
        echo "$which recorded $(timed "$binary" run "$work/script.chat" --db "$work/$which.sqlite" --name "bench$run")" >> "$work/times"
        echo "$which replay $(timed "$binary" replay "bench$run" --db "$work/$which.sqlite")" >> "$work/times"
    done
done
# The median of column $3 (wall) or $4 (CPU) of WHICH's KIND runs.
of() { awk -v w="$1" -v k="$2" -v c="$3" '$1 == w && $2 == k { print $c }' "$work/times" | median; }
perstep() { echo "($1) * 1000000 / $STEPS" | bc -l; }
for which in A B; do
    printf '%s (%s): wall per step %.1f µs plain, %.1f µs recorded, recording cost %.1f µs; CPU per step %.1f µs plain, %.1f µs recorded, recording cost %.1f µs; replay %.0f steps/s\n' \
        "$which" "${!which}" "$(perstep "$(of $which plain 3)")" "$(perstep "$(of $which recorded 3)")" \
        "$(perstep "$(of $which recorded 3) - $(of $which plain 3)")" "$(perstep "$(of $which plain 4)")" \
        "$(perstep "$(of $which recorded 4)")" "$(perstep "$(of $which recorded 4) - $(of $which plain 4)")" \
        "$(echo "$STEPS / $(of $which replay 3)" | bc -l)"
done
