#!/usr/bin/env bash
# SIGKILL `chatbench serve` in the middle of traffic (CLIENTS users sending and
# holding event streams), restart it on the same database and port, and check
# that no acknowledged message is lost and the streams catch up with no
# duplicate and no gap. Loopback only, bounded (about SECONDS + 20 s).
#
#   scripts/kill-restart.sh
#   CLIENTS=50 SECONDS_OF_TRAFFIC=6 CHATBENCH=.build-release/release/chatbench scripts/kill-restart.sh
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c "import aiohttp" 2>/dev/null || pip install -q aiohttp
if [[ -z "${CHATBENCH:-}" ]]; then
    swift build --product chatbench >/dev/null
    CHATBENCH="$(swift build --show-bin-path)/chatbench"
fi
exec timeout -k 5 180 python3 scripts/kill_restart.py "$CHATBENCH" --clients "${CLIENTS:-20}" --seconds "${SECONDS_OF_TRAFFIC:-4}"
