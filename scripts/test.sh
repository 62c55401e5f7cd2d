#!/usr/bin/env bash
# The test command: the one the README names and CI runs. Each part's output
# goes to a log, printed only when that part fails (so the servers' logs of
# the server tests stay out of a green run); the last lines are one summary
# of the whole run.
set -uo pipefail
cd "$(dirname "$0")/.."

# Tests and the examples never write into the real home: recordings and
# history go to a temporary folder.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export XDG_DATA_HOME="$scratch/data" XDG_STATE_HOME="$scratch/state" XDG_CONFIG_HOME="$scratch/config"

# What the build and the tests need beyond Swift (fast when all is there).
scripts/setup.sh --tests || exit 1

summary=()
failed=0

# part NAME MINUTES SUMMARY-PATTERN COMMAND...: runs COMMAND for at most
# MINUTES of wall time, keeps its log, and adds its last line matching
# SUMMARY-PATTERN to the summary. A part that runs out of time is stopped
# and fails with its log, and the tests it had started but not finished
# are named: a hang is a failure to read, never a CI run that never ends.
part() {
    local name="$1" minutes="$2" pattern="$3"
    shift 3
    local log="$scratch/$name.log" status=0
    echo "test: $name…" >&2
    timeout --kill-after=30s "${minutes}m" "$@" >"$log" 2>&1 || status=$?
    local line
    line="$(grep -E "$pattern" "$log" | tail -1)"
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
        failed=1
        cat "$log"
        echo "test: $name ran out of its $minutes minutes; started and not finished:" >&2
        scripts/unfinished_tests.py "$log" >&2 || true
        summary+=("$name: FAILED (stopped after $minutes minutes)")
    elif [ "$status" -ne 0 ]; then
        failed=1
        cat "$log"
        summary+=("$name: FAILED (exit $status)${line:+ — $line}")
    else
        summary+=("$name: ${line:-ok}")
    fi
}

part build 45 "Compiling|Build complete" swift build
if [ "$failed" -eq 0 ]; then
    bin="$(swift build --show-bin-path)/chatbench"
    # swift test runs XCTest, then Swift Testing: the summary keeps the
    # latter's last line (XCTest's says "Executed N tests").
    part "unit tests" 25 "Test run with [0-9]+ tests|Executed [0-9]+ tests" swift test
    # examples/ is a folder of transcripts, run as tests (SPEC W8), and the
    # README's tour is one too (its ```transcript blocks).
    # The HTML view in headless Chromium, on its own: beside the server-mode
    # tests its load starves their real-time steps.
    part "browser tests" 10 "Test run with [0-9]+ tests" env CHATBENCH_BROWSER_TESTS=1 swift test --skip-build --filter HTMLViewTests
    part "embedded transcripts" 10 "passed, [0-9]+ failed" "$bin" test examples/ README.md
    # The README's shell examples marked ```sh checked (explore and shrink):
    # run in a scratch folder, their output compared, so that the figures
    # the README quotes are the current build's.
    part "readme commands" 3 "readme commands" python3 scripts/readme_commands_check.py "$(dirname "$bin")"
    # The same transcripts against a real server over loopback: a fresh
    # in-process `chatbench serve` per file; files that move virtual time say
    # `# embedded-only:` and are skipped. Every answer the servers give is
    # logged and checked against docs/openapi.json.
    part "server transcripts" 10 "passed, [0-9]+ failed" env CHATBENCH_EXCHANGE_LOG="$scratch/exchanges.jsonl" "$bin" test --server fresh examples/
    part "answers as documented" 5 "." python3 scripts/openapi_check.py "$scratch/exchanges.jsonl"
    # The outbox over a real network (D7): three SDK clients (REPL processes
    # against a server) send 200 messages each while the server is killed
    # with SIGKILL and restarted three times on the same file and port:
    # none failed, lost, duplicated or out of order, with no manual retry
    # (about half a minute, loopback only).
    part "kill and restart under SDK clients" 3 "failed [0-9]+, not sent" python3 scripts/kill_restart_sdk.py "$bin" --clients 3 --messages 200 --kills 3
    # An app's diagnostics file, end to end (issue 27 §5): the example app
    # (Examples/DiagnosticsStory, the SDK's public API only) records its story
    # over loopback while the server restarts; then sessions show, replay
    # (must match the device), export and test of the export (it must take the
    # messages through the states the app saw). A few seconds.
    part "field recording end to end" 3 "field story:" env CHATBENCH="$bin" scripts/field-story.sh
    # The contract is valid OpenAPI; the server over real sockets: malformed
    # requests, idle connections, refused upgrades, SIGTERM (a few seconds).
    part "server sockets" 5 "." python3 scripts/server_checks.py "$bin"
    # Hostile connections (issue 26): 1,100 slowloris connections against a
    # server under ulimit -n 1024, a stream whose client reads nothing, eight
    # catch-ups from after=0 over 3,000 messages (about 80 s).
    part "server attack: connections" 3 "server attack: connections|FAIL" python3 scripts/server_attack_connections.py "$bin"
    # A client written from docs/openapi.json alone, with httpx and
    # websockets: identity cases, every user operation, pagination, the
    # event stream and its catch-up.
    part "third-party client" 3 "third-party client" python3 scripts/third_party_client.py "$bin"
    # The server attacked and faulted (issue 26, SPEC S4): equivalent ids on
    # every route and the event stream, a full disk (the 500, /health, the
    # log's secrets), foreign, damaged and locked database files, refresh
    # token reuse, a session token after logout, a second SIGTERM, a second
    # app asking about the demo app's user and conversation ids.
    part "server attack" 5 "server attack" python3 scripts/server_attack.py "$bin"
    # A short schemathesis run from the document (all phases, seed 1, every
    # user route authenticated and counted; ~20 s).
    part "schemathesis" 10 "." scripts/schemathesis_check.sh "$bin"
    # Every behaviour id a comment cites is explained in docs/behaviour.md,
    # and every example and test it links to exists.
    part "behaviour ids" 1 "behaviour ids" python3 scripts/behaviour_check.py
    # docs/ci/'s GitHub workflow and GitLab CI job parse, have the keys each
    # CI needs, and are shown as they are in docs/ci.md.
    part "ci files" 1 "ci files" python3 scripts/ci_files_check.py
    # The wire format is not the SDK's API: ChatSDK and ChatSDKNetwork import
    # ChatCore below public, so the compiler keeps wire types out of their
    # public declarations; this fails on an import that would let them in.
    part "public surface" 1 "surface" python3 scripts/surface_check.py
    # The OpenAPI code committed in ChatSDKNetwork and ChatServer is what the
    # generator makes from docs/openapi.json (it builds the generator on its own).
    part "generated code" 15 "generated code" scripts/openapi-generate.sh --check
    # And what that proves, from the outside: an app written against the
    # README's API compiles; one that names a wire type or a seam does not.
    part "app surface" 2 "app surface" python3 scripts/app_surface_check.py "$(dirname "$bin")"
    # docs/recording-schema.md's queries, on an embedded and a server session.
    part "recording queries" 5 "." python3 scripts/recording_queries_check.py "$bin"
    # The toolchain's formatter, with the checked-in .swift-format (lines up
    # to 140): `swift format --in-place -r Sources Tests Package.swift` fixes
    # what it reports.
    part format 5 "." swift format lint --strict -r Sources Tests Package.swift
fi

echo
echo "summary:"
printf '  %s\n' "${summary[@]}"
exit "$failed"
