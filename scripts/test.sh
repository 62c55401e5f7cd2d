#!/usr/bin/env bash
# The test command: the one the README names and CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."

# Tests and the examples never write into the real home: recordings and
# history go to a temporary folder.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export XDG_DATA_HOME="$scratch/data" XDG_STATE_HOME="$scratch/state"

swift build && swift test
# examples/ is a folder of transcripts, run as tests (SPEC W8).
"$(swift build --show-bin-path)/chatbench" test examples/
# The same transcripts against a real server over loopback (issue 6's
# conformance): a fresh in-process `chatbench serve` per file; files that
# move virtual time say `# embedded-only:` and are skipped. Every answer the
# servers give is logged and checked against docs/openapi.json (issue 13).
CHATBENCH_EXCHANGE_LOG="$scratch/exchanges.jsonl" "$(swift build --show-bin-path)/chatbench" test --server fresh examples/
python3 scripts/openapi_check.py "$scratch/exchanges.jsonl"
# The contract is valid OpenAPI; the server over real sockets: malformed
# requests, idle connections, refused upgrades, SIGTERM (a few seconds).
python3 scripts/server_checks.py "$(swift build --show-bin-path)/chatbench"
# A short schemathesis run from the document (all phases, seed 1; ~30 s).
scripts/schemathesis_check.sh "$(swift build --show-bin-path)/chatbench"
# docs/recording-schema.md's queries, on an embedded and a server session.
python3 scripts/recording_queries_check.py "$(swift build --show-bin-path)/chatbench"
