#!/usr/bin/env bash
# Issue 27 §5, end to end, over loopback: the example app
# (Examples/DiagnosticsStory, ChatSDK + ChatSDKNetwork's public API) runs its
# story against `chatbench serve` with the flight recorder on — it signs in,
# sends, the server restarts (stopped, then started again on the same port
# and database) while the app asks again, the agent answers — and writes its
# diagnostics file. Then the workbench's side on that file: `sessions show`,
# `replay` (must match the device), `export` (must say every state was
# reproduced) and `test` on the export, and a check that the exported
# transcript takes the app's messages through the states the app saw
# (`client.events()`, written by the app).
#
#   scripts/field-story.sh [DIR]    # keeps its files in DIR when given
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/serve-lib.sh
story="$(swift build --show-bin-path)/diagnostics-story"
[[ -x "$story" ]] || swift build --product diagnostics-story >/dev/null

dir="${1:-$(mktemp -d)}"
mkdir -p "$dir"
serve_pid=""
story_pid=""
stop() {
    [[ -n "$story_pid" ]] && kill "$story_pid" 2>/dev/null || true
    [[ -n "$serve_pid" ]] && kill "$serve_pid" 2>/dev/null || true
}
# The servers and the app stop with the script; DIR stays when it was given.
trap 'stop; [[ -n "${1:-}" ]] || rm -rf "$dir"' EXIT

# wait_for FILE TEXT SECONDS: until FILE has a line with TEXT.
wait_for() {
    for _ in $(seq $(($3 * 10))); do
        grep -q "$2" "$1" 2>/dev/null && return 0
        kill -0 "$story_pid" 2>/dev/null || break
        sleep 0.1
    done
    echo "field story: no \"$2\" in $1:" >&2
    cat "$1" >&2
    return 1
}

start_serve "$dir" --db "$dir/server.sqlite"
port="${serve_url##*:}"
"$story" --server "$serve_url" --out "$dir/ticket.sqlite" --states "$dir/states.txt" --restarted "$dir/restarted" \
    >"$dir/story.out" 2>&1 &
story_pid=$!

wait_for "$dir/story.out" "restart the server now" 30
kill -TERM "$serve_pid"
wait "$serve_pid" || true
wait_for "$dir/story.out" "asked again while the server was away" 30
"$CHATBENCH" serve --port "$port" --db "$dir/server.sqlite" >"$dir/serve2.out" 2>"$dir/serve2.log" &
serve_pid=$!
for _ in $(seq 100); do
    grep -q "listening on" "$dir/serve2.out" 2>/dev/null && break
    sleep 0.1
done
grep -q "listening on" "$dir/serve2.out" || { echo "field story: the server did not start again" >&2; cat "$dir/serve2.log" >&2; exit 1; }
touch "$dir/restarted"
wait "$story_pid" || { echo "field story: the app failed:" >&2; cat "$dir/story.out" >&2; exit 1; }
story_pid=""
cat "$dir/story.out"

echo "--- sessions show"
"$CHATBENCH" sessions show "$dir/ticket.sqlite"
echo "--- replay"
"$CHATBENCH" replay "$dir/ticket.sqlite"
echo "--- export"
"$CHATBENCH" export "$dir/ticket.sqlite" "$dir/ticket.chat" 2>&1 | tee "$dir/export.out"
grep -q "^# The world took every message the app sent through the states the device saw." "$dir/ticket.chat" || {
    echo "field story: the export does not take the messages through the states the device saw:" >&2
    grep "^#" "$dir/ticket.chat" >&2
    exit 1
}
"$CHATBENCH" test "$dir/ticket.chat"

# The states the app saw, per message, against the exported transcript's:
# its messages in the order they first show a state, the same for the app.
python3 - "$dir/states.txt" "$dir/ticket.chat" <<'EOF'
import re, sys

def sequences(pairs):
    out = {}
    for id, state in pairs:
        seq = out.setdefault(id, [])
        if not seq or seq[-1] != state:
            seq.append(state)
    return list(out.values())

app = sequences(line.split(" ", 1) for line in open(sys.argv[1]).read().split("\n") if line)
app = [[state.split("(")[0] for state in seq] for seq in app]
world = sequences(m.groups() for m in re.finditer(r"^  \[[0-9:.]+\] (m\d+): (\w+)", open(sys.argv[2]).read(), re.M))
if app != world:
    sys.exit(f"field story: the app saw {app}, the exported transcript shows {world}")
print(f"field story: the exported transcript takes {len(app)} messages through the states the app saw: {app}")
EOF
