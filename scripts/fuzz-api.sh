#!/usr/bin/env bash
# Fuzzes the API of `chatbench serve` from docs/openapi.json with schemathesis
# (loopback only, bounded: EXAMPLES examples per operation, default 100) and
# reports any 5xx. The run is authenticated (API key, a user's access token
# and the app secret), so requests get past authentication; schemathesis also
# sends invalid ones. Exit status 1 if any 5xx was answered.
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
# A conversation of the fuzzer's, so that some generated ids exist.
curl -sf -X POST "$url/v1/conversations/c1/messages" -H "X-Api-Key: demo-key" -H "Authorization: Bearer $token" \
    -H "Content-Type: application/json" \
    -d '{"createConversation": {}, "message": {"id": "m1", "content": {"text": {"_0": "hi"}}}}' >/dev/null

echo "fuzz-api: schemathesis $(schemathesis --version 2>/dev/null | tail -1) against $url, $examples examples per operation"
status=0
timeout -k 5 900 schemathesis run docs/openapi.json --url "$url" \
    -H "X-Api-Key: demo-key" -H "Authorization: Bearer $token" -H "X-App-Secret: $secret" \
    --checks not_a_server_error --max-examples "$examples" --seed 1 --no-color >"$tmp/report" 2>&1 || status=$?
tail -n 40 "$tmp/report"

requests=$(grep -cE '"?(GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS) /' "$tmp/serve.log" || true)
server_errors=$(grep -E '"?(GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS) /[^ ]* 5[0-9][0-9] ' "$tmp/serve.log" || true)
echo "fuzz-api: the server logged $requests requests; 5xx answers: $(printf '%s' "$server_errors" | grep -c . || true)"
[[ -z "$server_errors" ]] || { printf '%s\n' "$server_errors" | head -20; exit 1; }
exit "$status"
