#!/usr/bin/env bash
# Issue 17's rows that do not touch the SDK's cache, before and after, in one
# run: this tree's release binary ("after") against one built from BEFORE
# (a git ref, default main) in its own scratch folder, runs interleaved
# (before, after, before, after…), medians, and after/before as a ratio.
#
#   scripts/bench-speed.sh                 # RUNS=7 STEPS=20000 CG_STEPS=2000 BEFORE=main
#   BEFORE=75e2956 RUNS=11 scripts/bench-speed.sh
#   BEFORE_BIN=/path/to/chatbench scripts/bench-speed.sh   # no before build
#
# Rows:
#   1. interpreter floor: µs per `clock advance 1s` step and per
#      `expect client.user == alice` step: (script of STEPS such lines -
#      the same script without them) / STEPS, --no-record;
#   2. recording, added per step: the clock script with --db minus without,
#      / STEPS; and the bare commit of the same rows (python3's sqlite3, the
#      same schema, WAL, synchronous=NORMAL, one transaction per step) and
#      the WAL bytes written per step (strace, when installed);
#   3. start-up: `chatbench --version` and the REPL with `quit` piped in;
#   4. instructions per clock and expect step, added per recorded step,
#      and for `--version` (valgrind --tool=callgrind, when installed, on
#      CG_STEPS steps): the reproducible figures on a loaded machine.
#
# The before binary is cached by commit in $BENCH_CACHE (default
# ~/.cache/chatbench-bench/SHA): the first run builds it (a release build,
# many minutes); later runs reuse it.
RUNS=${RUNS:-7}
STEPS=${STEPS:-20000}
# Instruction counts (and strace) are exact: fewer steps do.
CG_STEPS=${CG_STEPS:-2000}
BEFORE=${BEFORE:-main}
source "$(dirname "$0")/bench-lib.sh"
export NO_COLOR=1

if [[ -n "${BEFORE_BIN:-}" ]]; then
    before="$BEFORE_BIN"
else
    sha=$(git rev-parse "$BEFORE^{commit}")
    cache="${BENCH_CACHE:-$HOME/.cache/chatbench-bench}/$sha"
    before="$cache/chatbench"
    if [[ ! -x "$before" ]]; then
        echo "building the before binary ($BEFORE = ${sha:0:9}) in $cache/src …" >&2
        rm -rf "$cache/src" && mkdir -p "$cache/src"
        git archive "$sha" | tar -x -C "$cache/src"
        swift build -c release --product chatbench --package-path "$cache/src" --scratch-path "$cache/src/.build" >&2
        cp "$(swift build -c release --package-path "$cache/src" --scratch-path "$cache/src/.build" --show-bin-path)/chatbench" "$before"
    fi
fi
after="$bin"

# The scripts. Steps are timed as a difference, so start-up and the world's
# creation cancel out.
{ echo "user set alice"; } > "$work/base.chat"
for n in "$STEPS" "$CG_STEPS"; do
    { cat "$work/base.chat"; for ((i = 0; i < n; i++)); do echo "clock advance 1s"; done; } > "$work/clock$n.chat"
    { cat "$work/base.chat"; for ((i = 0; i < n; i++)); do echo "expect client.user == alice"; done; } > "$work/expect$n.chat"
done
cp "$work/clock$STEPS.chat" "$work/clock.chat"; cp "$work/expect$STEPS.chat" "$work/expect.chat"
printf 'quit\n' > "$work/quit.chat"

# Medians, interleaved: `pair NAME CMD…` runs CMD with $B set to each binary
# in turn, RUNS times, and stores each median (seconds) in m_NAME_before/after.
declare -A m
pair() {
    local name=$1; shift
    local b=() a=() run
    for run in $(seq "$RUNS"); do
        b+=("$(B=$before; elapsed eval "$@")")
        a+=("$(B=$after; elapsed eval "$@")")
    done
    m[${name}_before]=$(printf '%s\n' "${b[@]}" | median)
    m[${name}_after]=$(printf '%s\n' "${a[@]}" | median)
}
n=0
db() { n=$((n + 1)); echo "$work/rec$n.sqlite"; }

pair base '"$B" run "$work/base.chat" --no-record'
pair clock '"$B" run "$work/clock.chat" --no-record'
pair expect '"$B" run "$work/expect.chat" --no-record'
pair recorded '"$B" run "$work/clock.chat" --db "$(db)"'
pair version '"$B" --version'
pair piped '"$B" --no-record < "$work/quit.chat"'

per_step() { echo "(${m[$1_$3]} - ${m[$2_$3]}) * 1000000 / $STEPS" | bc -l; }
row() {  # label, before, after, unit
    printf '%-44s %9.1f %9.1f %s   ×%.2f\n' "$1" "$2" "$3" "$4" "$(echo "$3 / $2" | bc -l)"
}
echo
echo "issue 17, before = $BEFORE ($before), after = this tree; times: medians of $RUNS interleaved runs of $STEPS steps; exact counts: $CG_STEPS steps"
printf '%-44s %9s %9s\n' "" before after
row "clock step (interpreter floor)" "$(per_step clock base before)" "$(per_step clock base after)" µs
row "expect step (interpreter floor)" "$(per_step expect base before)" "$(per_step expect base after)" µs
row "recording, added per clock step" "$(per_step recorded clock before)" "$(per_step recorded clock after)" µs
row "chatbench --version" "$(echo "${m[version_before]} * 1000" | bc -l)" "$(echo "${m[version_after]} * 1000" | bc -l)" ms
row "REPL ready, piped (quit)" "$(echo "${m[piped_before]} * 1000" | bc -l)" "$(echo "${m[piped_after]} * 1000" | bc -l)" ms

# The floor of recording: the same rows, each step in its own transaction,
# into a fresh file with the same schema, from python3's sqlite3.
bare() {  # recorded database → µs per step
    python3 - "$1" "$work/bare$RANDOM.sqlite" <<'PY'
import sqlite3, sys, time
source, target = sqlite3.connect(sys.argv[1]), sqlite3.connect(sys.argv[2], isolation_level=None)
target.execute("PRAGMA journal_mode=WAL"); target.execute("PRAGMA synchronous=NORMAL")
for (sql,) in source.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'"):
    target.execute(sql)
def rows(table):
    return source.execute(f"SELECT * FROM {table}").fetchall()
for row in rows("session"):
    target.execute(f"INSERT INTO session VALUES ({', '.join('?' * len(row))})", row)
# Each step's rows, read beforehand: only the inserts and the commit are timed.
steps = {}
for table, column in (("step", 1), ("event", 1), ("traffic", 2)):
    for row in rows(table):
        steps.setdefault(row[column], []).append((f"INSERT INTO {table} VALUES ({', '.join('?' * len(row))})", row))
start = time.perf_counter()
for number in sorted(steps, key=lambda n: (n is None, n or 0)):
    target.execute("BEGIN IMMEDIATE")
    for sql, row in steps[number]:
        target.execute(sql, row)
    target.execute("COMMIT")
print((time.perf_counter() - start) * 1e6 / len(steps))
PY
}
"$before" run "$work/clock$CG_STEPS.chat" --db "$work/floor-before.sqlite" >/dev/null 2>&1 || true
"$after" run "$work/clock$CG_STEPS.chat" --db "$work/floor-after.sqlite" >/dev/null 2>&1 || true
row "bare commit of the same rows (python3)" "$(bare "$work/floor-before.sqlite")" "$(bare "$work/floor-after.sqlite")" µs

if command -v strace >/dev/null; then
    wal_bytes() {  # binary → bytes written to the WAL per clock step
        strace -f -e trace=openat,pwrite64,write -o "$work/strace.log" "$1" run "$work/clock$CG_STEPS.chat" --db "$(db)" >/dev/null 2>&1 || true
        python3 - "$work/strace.log" "$CG_STEPS" <<'PY'
import re, sys
fds, total = {}, 0
for line in open(sys.argv[1]):
    opened = re.search(r'openat\(.*"([^"]+)".* = (\d+)$', line)
    if opened: fds[opened.group(2)] = opened.group(1)
    written = re.search(r'(?:pwrite64|write)\((\d+),.* = (\d+)$', line)
    if written and fds.get(written.group(1), "").endswith("-wal"): total += int(written.group(2))
print(total / int(sys.argv[2]))
PY
    }
    row "WAL bytes written per recorded clock step" "$(wal_bytes "$before")" "$(wal_bytes "$after")" B
fi

if command -v valgrind >/dev/null; then
    # valgrind 3.19 cannot read the release binary's DWARF: profile a copy
    # without it (the symbol table stays, so profiles keep their names).
    objcopy --strip-debug "$before" "$work/before-nodebug"
    objcopy --strip-debug "$after" "$work/after-nodebug"
    instructions() {  # binary, script, [options] → instructions (callgrind's total)
        local binary=$1 script=$2; shift 2
        valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$binary" run "$script" "${@:---no-record}" >/dev/null 2>"$work/cg.err" || true
        sed -n 's/^==[0-9]*== Collected : //p' "$work/cg.err"
    }
    recorded_ir() {  # binary → instructions a recorded clock step adds
        echo "($(instructions "$1" "$work/clock$CG_STEPS.chat" --db "$(db)") - $(instructions "$1" "$work/clock$CG_STEPS.chat")) / $CG_STEPS / 1000" | bc -l
    }
    ir() {  # binary, script → instructions per step of that script
        echo "($(instructions "$1" "$2") - $(instructions "$1" "$work/base.chat")) / $CG_STEPS / 1000" | bc -l
    }
    row "clock step, instructions (callgrind)" "$(ir "$work/before-nodebug" "$work/clock$CG_STEPS.chat")" "$(ir "$work/after-nodebug" "$work/clock$CG_STEPS.chat")" kIr
    row "expect step, instructions (callgrind)" "$(ir "$work/before-nodebug" "$work/expect$CG_STEPS.chat")" "$(ir "$work/after-nodebug" "$work/expect$CG_STEPS.chat")" kIr
    row "recording, instructions added per clock step" "$(recorded_ir "$work/before-nodebug")" "$(recorded_ir "$work/after-nodebug")" kIr
    version_ir() { valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$1" --version >/dev/null 2>"$work/cg.err" || true
        echo "$(sed -n 's/^==[0-9]*== Collected : //p' "$work/cg.err") / 1000000" | bc -l; }
    row "chatbench --version, instructions" "$(version_ir "$work/before-nodebug")" "$(version_ir "$work/after-nodebug")" MIr
fi
