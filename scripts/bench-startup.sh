#!/usr/bin/env bash
# Start-up time of a release chatbench: median of N runs (default 50) of
#   1. chatbench --version
#   2. the REPL with piped input reaching its loop and quitting (quit on stdin)
#   3. the interactive REPL drawing its prompt on a pseudo-terminal
# Usage: scripts/bench-startup.sh [N]      (hyperfine is used when installed)
#        STATIC=1 scripts/bench-startup.sh  the binary scripts/install.sh
#                                           installs (static Swift runtime,
#                                           no debug information)
#        BIN=path scripts/bench-startup.sh  a binary of your choice
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${1:-50}"
if [ -n "${BIN:-}" ]; then
    bin="$BIN"
elif [ -n "${STATIC:-}" ]; then
    flags=(-c release --static-swift-stdlib --scratch-path .build-static)
    swift build "${flags[@]}" --product chatbench >&2
    bin="$(mktemp)"
    objcopy --strip-debug "$(swift build "${flags[@]}" --show-bin-path)/chatbench" "$bin"
    chmod +x "$bin"
else
    swift build -c release --product chatbench >&2
    bin="$(swift build -c release --show-bin-path)/chatbench"
fi

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export XDG_STATE_HOME="$scratch/state" XDG_DATA_HOME="$scratch/data" NO_COLOR=1
printf 'quit\n' > "$scratch/quit.chat"

median_ms() {  # the median of nanosecond figures on stdin, in ms
    sort -n | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f", m / 1e6 }'
}

measure() {  # name, shell command
    local name="$1" command="$2" median
    if command -v hyperfine >/dev/null; then
        hyperfine --style none --warmup 3 --runs "$runs" --export-json "$scratch/h.json" "$command" >/dev/null 2>&1
        median="$(python3 -c 'import json,sys; print("%.2f" % (json.load(open(sys.argv[1]))["results"][0]["median"] * 1000))' "$scratch/h.json")"
    else
        for _ in $(seq 3); do sh -c "$command" >/dev/null 2>&1; done
        median="$(for _ in $(seq "$runs"); do
            start=$(date +%s%N); sh -c "$command" >/dev/null 2>&1; end=$(date +%s%N)
            echo $((end - start))
        done | median_ms)"
    fi
    printf '%-40s %8s ms\n' "$name" "$median"
}

# Time from fork to the prompt appearing on a pseudo-terminal.
measure_prompt() {
    local median
    median="$(python3 - "$bin" "$runs" <<'PY' | median_ms
import os, pty, signal, sys, time
binary, runs = sys.argv[1], int(sys.argv[2])
for i in range(runs + 3):
    start = time.perf_counter_ns()
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(binary, [binary, "--no-record"])
    seen = b""
    while b"chatbench> " not in seen:
        seen += os.read(fd, 4096)
    elapsed = time.perf_counter_ns() - start
    # The prompt is what is measured: end the child without typing (a Ctrl-D
    # sent while libedit switches terminal modes can be read as an empty line).
    os.kill(pid, signal.SIGTERM)
    os.waitpid(pid, 0)
    os.close(fd)
    if i >= 3:  # warm-up
        print(elapsed)
PY
)"
    printf '%-40s %8s ms\n' "interactive prompt (pty)" "$median"
}

echo "chatbench start-up, median of $runs runs ($bin)"
measure "chatbench --version" "$bin --version"
measure "piped REPL: quit on stdin" "$bin --no-record < $scratch/quit.chat"
measure_prompt
