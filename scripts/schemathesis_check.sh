#!/usr/bin/env bash
# A short, bounded schemathesis run against `chatbench serve` (issue 13):
# every phase (examples, coverage, fuzzing, stateful), seed 1, 10 examples
# per operation, every check (no 5xx, responses as documented, statuses
# documented, valid data accepted, invalid data refused). About 15 s.
# Longer runs (seeds 1-5, 100 examples): SEEDS="1 2 3 4 5" EXAMPLES=100.
#   scripts/schemathesis_check.sh PATH/TO/chatbench
set -euo pipefail
cd "$(dirname "$0")/.."
binary="$1"
seeds="${SEEDS:-1}"
examples="${EXAMPLES:-10}"
work="$(mktemp -d)"
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

status=0
for seed in $seeds; do
    "$binary" serve --port 0 --db :memory: --log-level error > "$work/serve.out" 2> "$work/serve.err" &
    pid=$!
    for _ in $(seq 50); do grep -q "listening on" "$work/serve.out" && break; sleep 0.1; done
    url="$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$work/serve.out")"
    token="$(python3 - "$url" <<'PY'
import json, sys, urllib.request
request = urllib.request.Request(sys.argv[1] + "/v1/app/tokens", data=b'{"userId":"fuzz"}', method="POST",
                                 headers={"X-Api-Key": "demo-key", "X-App-Secret": "demo-secret-0123456789abcdef",
                                          "Content-Type": "application/json"})
print(json.load(urllib.request.urlopen(request))["accessToken"])
PY
)"
    schemathesis run docs/openapi.json --url "$url" --seed "$seed" --max-examples "$examples" --checks all --workers 1 --no-color \
        -H "X-Api-Key: demo-key" -H "X-App-Secret: demo-secret-0123456789abcdef" -H "Authorization: Bearer $token" \
        > "$work/run.txt" 2>&1 || true
    kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""
    summary="$(grep -E "generated" "$work/run.txt" | tail -1 | sed 's/^ *//')"
    # A failure of a check fails this; schemathesis' own runtime errors
    # (its generator has crashed on some schemas) are shown, not counted.
    if grep -q "❌ ST" "$work/run.txt"; then
        echo "schemathesis, seed $seed: FAILED ($summary)"
        sed -n '/^=* FAILURES =*$/,/^=* SUMMARY =*$/p' "$work/run.txt" | head -80
        status=1
    else
        echo "schemathesis, seed $seed: $summary"
        grep -E "🚫" "$work/run.txt" || true
    fi
done
exit $status
