#!/usr/bin/env bash
# Load test of `chatbench serve` on loopback, bounded in count and time:
# CLIENTS users each holding a WebSocket and sending over HTTP, RATE messages
# per second in all, for DURATION seconds. Reports msg/s, delivery latency
# p50/p99, and checks nothing acknowledged is lost or duplicated.
#
#   scripts/load-test.sh                       # 500 clients, 30 s, 1000 msg/s
#   CLIENTS=100 DURATION=10 RATE=500 scripts/load-test.sh
#   CHATBENCH=.build/release/chatbench scripts/load-test.sh   # a release binary
set -euo pipefail
cd "$(dirname "$0")/.."

clients=${CLIENTS:-500}
duration=${DURATION:-30}
rate=${RATE:-1000}

python3 -c "import aiohttp" 2>/dev/null || pip install -q aiohttp
source scripts/serve-lib.sh
ulimit -n 8192 2>/dev/null || ulimit -n "$(ulimit -Hn)"

tmp="$(mktemp -d)"
trap 'kill "${serve_pid:-}" 2>/dev/null || true; rm -rf "$tmp"' EXIT
start_serve "$tmp" --db "$tmp/load.sqlite" --log-level warning || exit 1
url=$serve_url
pid=$serve_pid
echo "load-test: $CHATBENCH serve at $url; $clients clients, ${duration}s, $rate msg/s"

status=0
timeout -k 5 $((duration + 180)) python3 scripts/load_test.py "$url" --clients "$clients" --seconds "$duration" --rate "$rate" || status=$?
kill -TERM "$pid"
wait "$pid" || { echo "load-test: the server exited with status $?"; status=1; }
exit "$status"
