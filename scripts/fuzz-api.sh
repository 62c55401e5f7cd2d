#!/usr/bin/env bash
# Fuzzes the API of `chatbench serve` from docs/openapi.json with schemathesis
# (loopback only, bounded: EXAMPLES examples per operation, default 100) and
# reports any 5xx. The run authenticates for real (issue 26): the API key and
# the app secret on every request, and through scripts/schemathesis_hooks.py
# an access token of its own for each case of a user route (one token for
# the whole run died at the first logout, and every later user request was a
# 401). POST /v1/app/settings runs last, on its own. Prints each route's
# answers; exit status 1 if any 5xx was answered or a user route got fewer
# than MIN_2XX (default 3) authenticated 2xx.
#
#   scripts/fuzz-api.sh
#   EXAMPLES=500 scripts/fuzz-api.sh
set -euo pipefail
cd "$(dirname "$0")/.."

examples=${EXAMPLES:-100}
command -v schemathesis >/dev/null || pip install -q schemathesis
source scripts/serve-lib.sh

tmp="$(mktemp -d)"
trap 'kill "${serve_pid:-}" 2>/dev/null || true; rm -rf "$tmp"' EXIT
start_serve "$tmp" --db "$tmp/fuzz.sqlite" || exit 1
url=$serve_url

secret="demo-secret-0123456789abcdef"
token="$(curl -sf -X POST "$url/v1/app/tokens" -H "X-Api-Key: demo-key" -H "X-App-Secret: $secret" \
    -H "Content-Type: application/json" -d '{"userId": "fuzzer"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["accessToken"])')"
# A conversation of the fuzzer's, which the hooks point half the positive cases at.
curl -sf -X POST "$url/v1/conversations/c1/messages" -H "X-Api-Key: demo-key" -H "Authorization: Bearer $token" \
    -H "Content-Type: application/json" \
    -d '{"createConversation": {}, "message": {"id": "m1", "content": {"text": {"_0": "hi"}}}}' >/dev/null
skip="$(wc -l < "$tmp/serve.log")"

echo "fuzz-api: schemathesis $(schemathesis --version 2>/dev/null | tail -1) against $url, $examples examples per operation"
status=0
fuzz() {
    CHATBENCH_URL="$url" CHATBENCH_FUZZ_USER=fuzzer CHATBENCH_FUZZ_CONVERSATION=c1 CHATBENCH_FUZZ_ISSUED="$tmp/issued" \
        SCHEMATHESIS_HOOKS=scripts/schemathesis_hooks.py \
        timeout -k 5 900 schemathesis --config-file scripts/schemathesis.toml run docs/openapi.json --url "$url" -H "X-Api-Key: demo-key" -H "X-App-Secret: $secret" \
        --checks not_a_server_error --max-examples "$examples" --seed 1 --no-color "$@" >>"$tmp/report" 2>&1 || status=$?
}
fuzz --exclude-operation-id updateAppSettings
fuzz --include-operation-id updateAppSettings --phases examples,coverage,fuzzing
tail -n 40 "$tmp/report"
python3 scripts/route_counts.py "$tmp/serve.log" --skip-lines "$skip" --issued "$tmp/issued" --min "${MIN_2XX:-3}" || status=1

requests=$(grep -cE '"?(GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS) /' "$tmp/serve.log" || true)
server_errors=$(grep -E '"?(GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS) /[^ ]* 5[0-9][0-9] ' "$tmp/serve.log" || true)
echo "fuzz-api: the server logged $requests requests; 5xx answers: $(printf '%s' "$server_errors" | grep -c . || true)"
[[ -z "$server_errors" ]] || { printf '%s\n' "$server_errors" | head -20; exit 1; }
exit "$status"
