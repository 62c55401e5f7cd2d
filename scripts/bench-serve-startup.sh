#!/usr/bin/env bash
# Time from `chatbench serve` process start to (a) its "listening on" line and
# (b) the first successful GET /health; median of RUNS (default 10) runs,
# each on a fresh database. Loopback only; each server is stopped with SIGTERM.
#
#   scripts/bench-serve-startup.sh
#   CHATBENCH=.build/release/chatbench RUNS=20 scripts/bench-serve-startup.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ -z "${CHATBENCH:-}" ]]; then
    swift build --product chatbench >/dev/null
    CHATBENCH="$(swift build --show-bin-path)/chatbench"
fi

CHATBENCH="$CHATBENCH" RUNS="${RUNS:-10}" python3 - <<'PY'
import os, statistics, subprocess, tempfile, time, urllib.request, signal, re

binary, runs = os.environ["CHATBENCH"], int(os.environ["RUNS"])
listening, healthy = [], []
for run in range(runs):
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        proc = subprocess.Popen([binary, "serve", "--port", "0", "--db", f"{tmp}/db.sqlite", "--log-level", "warning"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = proc.stdout.readline()
        t_line = time.perf_counter() - start
        url = re.search(r"(http://\S+)", line).group(1)
        while True:
            try:
                with urllib.request.urlopen(url + "/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.001)
        t_health = time.perf_counter() - start
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=10)
        assert code == 0, f"serve exited with {code} after SIGTERM"
        listening.append(t_line * 1000)
        healthy.append(t_health * 1000)
print(f"{binary} serve, {runs} runs:")
print(f"  start -> 'listening on' line: median {statistics.median(listening):.1f} ms (min {min(listening):.1f}, max {max(listening):.1f})")
print(f"  start -> first 200 on /health: median {statistics.median(healthy):.1f} ms (min {min(healthy):.1f}, max {max(healthy):.1f})")
print("  SIGTERM: exit status 0 every time")
PY
