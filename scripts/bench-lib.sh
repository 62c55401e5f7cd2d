# Shared by the bench-*.sh scripts (sourced, not run): the release binary in
# $bin, a temporary folder $work (removed on exit, XDG_* inside it), and
# timing helpers: `elapsed CMD...` prints CMD's wall time in seconds,
# `median` the median of the numbers on stdin.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

RUNS=${RUNS:-5}
STEPS=${STEPS:-10000}
swift build -c release --product chatbench >/dev/null
bin="$(swift build -c release --show-bin-path)/chatbench"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data" XDG_STATE_HOME="$work/state"

now() { date +%s.%N; }
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
elapsed() { local start end; start=$(now); "$@" >/dev/null 2>&1 || true; end=$(now); echo "$end - $start" | bc -l; }
