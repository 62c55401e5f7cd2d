#!/usr/bin/env bash
# A short, bounded schemathesis run against `chatbench serve` (issue 13):
# every phase (examples, coverage, fuzzing, stateful), seed 1, 10 examples
# per operation, every check (no 5xx, responses as documented, statuses
# documented, valid data accepted, invalid data refused).
# Longer runs (seeds 1-5, 100 examples): SEEDS="1 2 3 4 5" EXAMPLES=100.
#   scripts/schemathesis_check.sh PATH/TO/chatbench
#
# The runs authenticate for real (issue 26): scripts/schemathesis_hooks.py
# gives every case of a user route an access token of its own, so that a
# logout, a revocation or an expiry one case asks for does not turn the
# rest of the run into 401s, and points half the positive cases at a
# conversation seeded here. POST /v1/app/settings runs last, in a run of
# its own (a setting it changes, such as a 1 ms accessTokenTTL, would change
# what every later case is answered). Then scripts/route_counts.py counts
# each route's answers in the server's request log and fails when a user
# route got fewer than MIN_2XX (default 3) authenticated 2xx, and
# scripts/openapi_check.py checks every answer the server gave
# (CHATBENCH_EXCHANGE_LOG) against the document.
set -euo pipefail
cd "$(dirname "$0")/.."
binary="$1"
seeds="${SEEDS:-1}"
examples="${EXAMPLES:-10}"
min_2xx="${MIN_2XX:-3}"
work="$(mktemp -d)"
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; if [ -n "${KEEP_WORK:-}" ]; then echo "kept $work"; else rm -rf "$work"; fi; }
trap cleanup EXIT

# Seeds, as user `fuzz`, the conversation c1 (three messages, one of an
# agent's, and an image with its bytes) that the hooks point positive cases
# at; prints the image's attachment id.
seed_data() {
    python3 - "$1" <<'PY'
import json, sys, urllib.request
url = sys.argv[1]
app = {"X-Api-Key": "demo-key", "X-App-Secret": "demo-secret-0123456789abcdef", "Content-Type": "application/json"}
def post(path, body, headers):
    request = urllib.request.Request(url + path, data=json.dumps(body).encode(), method="POST", headers=headers)
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read() or b"null")
token = post("/v1/app/tokens", {"userId": "fuzz"}, app)["accessToken"]
user = {"X-Api-Key": "demo-key", "Authorization": "Bearer " + token, "Content-Type": "application/json"}
for index in range(3):
    body = {"message": {"id": f"seed-{index}", "content": {"text": {"_0": f"seed message {index}"}}}}
    if index == 0:
        body["createConversation"] = {}
    post("/v1/conversations/c1/messages", body, user)
post("/v1/agent/conversations/c1/say", {"text": "seeded agent message"}, app)
png = open("examples/files/dot.png", "rb").read()
upload = urllib.request.Request(url + "/v1/attachments", data=png, method="POST", headers=dict(user, **{"Content-Type": "image/png"}))
with urllib.request.urlopen(upload) as response:
    attachment = json.loads(response.read())
named = {"kind": "image", "mimeType": "image/png", "size": len(png), "fileName": "dot.png", "id": attachment["id"]}
post("/v1/conversations/c1/messages", {"message": {"id": "seed-attachment", "content": {"attachment": named}}}, user)
print(attachment["id"])
PY
}

run_schemathesis() {
    local out=$1
    shift
    CHATBENCH_URL="$url" CHATBENCH_FUZZ_USER=fuzz CHATBENCH_FUZZ_CONVERSATION=c1 CHATBENCH_FUZZ_ISSUED="$work/issued" \
        CHATBENCH_FUZZ_ATTACHMENT="$attachment" \
        SCHEMATHESIS_HOOKS=scripts/schemathesis_hooks.py \
        timeout -k 5 600 schemathesis --config-file scripts/schemathesis.toml run docs/openapi.json --url "$url" --seed "$seed" --max-examples "$examples" \
        --checks all --workers 1 --no-color \
        -H "X-Api-Key: demo-key" -H "X-App-Secret: demo-secret-0123456789abcdef" "$@" > "$out" 2>&1 || true
}

status=0
for seed in $seeds; do
    rm -f "$work/issued"
    rm -f "$work/exchanges.jsonl"
    CHATBENCH_EXCHANGE_LOG="$work/exchanges.jsonl" \
        "$binary" serve --port 0 --db :memory: --log-level info > "$work/serve.out" 2> "$work/serve.log" &
    pid=$!
    for _ in $(seq 300); do grep -q "listening on" "$work/serve.out" 2>/dev/null && break; sleep 0.1; done
    url="$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$work/serve.out")"
    if [ -z "$url" ]; then
        echo "schemathesis, seed $seed: the server did not start in 30 s"; tail -20 "$work/serve.log"
        exit 1
    fi
    attachment="$(seed_data "$url")"
    skip="$(wc -l < "$work/serve.log")"
    run_schemathesis "$work/run.txt" --exclude-operation-id updateAppSettings
    # (No stateful phase: every link of the document leads out of this run.)
    run_schemathesis "$work/settings.txt" --include-operation-id updateAppSettings --phases examples,coverage,fuzzing
    kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""
    for run in run settings; do
        summary="$(grep -E "generated" "$work/$run.txt" | tail -1 | sed 's/^ *//')"
        name="seed $seed"; [ "$run" = settings ] && name="seed $seed, POST /v1/app/settings"
        # A failure of a check fails this; schemathesis' own runtime errors
        # (its generator has crashed on some schemas) are shown, not counted.
        if grep -q "❌ ST" "$work/$run.txt"; then
            echo "schemathesis, $name: FAILED ($summary)"
            sed -n '/^=* FAILURES =*$/,/^=* SUMMARY =*$/p' "$work/$run.txt" | head -"${FAILURE_LINES:-80}"
            status=1
        elif ! grep -q "generated" "$work/$run.txt"; then
            echo "schemathesis, $name: did not run"
            tail -20 "$work/$run.txt"
            status=1
        else
            echo "schemathesis, $name: $summary"
            grep -E "🚫" "$work/$run.txt" || true
        fi
    done
    echo "schemathesis, seed $seed: answers per route (authenticated 2xx of user routes at least $min_2xx):"
    python3 scripts/route_counts.py "$work/serve.log" --skip-lines "$skip" --issued "$work/issued" --min "$min_2xx" || status=1
    # And every answer of the run, checked against the document as the
    # conformance pass's are (schemathesis checks those of the cases it keeps).
    python3 scripts/openapi_check.py "$work/exchanges.jsonl" | tail -"${FAILURE_LINES:-20}" || status=1
done
exit $status
