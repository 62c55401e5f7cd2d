# Shared by the bench-*.sh scripts (sourced, not run): the release binary in
# $bin (built here, or BIN=path for one already built), a temporary folder
# $work (removed on exit, XDG_* inside it), and timing helpers: `elapsed CMD...` prints CMD's wall time in seconds,
# `median` the median of the numbers on stdin; `recording_script` prints the
# recording benchmarks' script of $STEPS steps.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

RUNS=${RUNS:-5}
STEPS=${STEPS:-10000}
if [[ -n "${BIN:-}" ]]; then
    bin="$BIN"
else
    swift build -c release --product chatbench >/dev/null
    bin="$(swift build -c release --show-bin-path)/chatbench"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data" XDG_STATE_HOME="$work/state"

now() { date +%s.%N; }
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
elapsed() { local start end; start=$(now); "$@" >/dev/null 2>&1 || true; end=$(now); echo "$end - $start" | bc -l; }

# A script of STEPS steps: a conversation, a message every 100 steps,
# inspections, expects and clock moves (hours of virtual time). A message
# comes only now and then: the world slows down as a conversation grows,
# which is not what the recording benchmarks measure.
recording_script() {
    awk -v steps="$STEPS" 'BEGIN {
        print "user set alice"; print "watch conversations"; print "start conversation"
        print "send c1 text \"first\""
        for (n = 4; n < steps; n++) {
            if (n % 100 == 0) print "send c1 text \"message " n "\""
            else if (n % 3 == 0) print "clock advance 1s"
            else if (n % 3 == 1) print "expect client.user == alice"
            else print "m1.state"
        }
    }'
}
