#!/usr/bin/env bash
# Speed and size of the HTML sequence view (issue 16), with the release
# binary: a STEPS-step recorded session (default 10,000) is rendered with
# `sessions show ID --html FILE` and opened in headless Chromium
# (`--dump-dom`: load, run the page's script, serialise the DOM). Prints
# medians of RUNS runs (default 5), and Chromium on an empty page for
# comparison (its start-up alone).
#
#   scripts/bench-html.sh
#   RUNS=3 STEPS=10000 scripts/bench-html.sh
#   SCREENSHOT=docs/sequence-view.png scripts/bench-html.sh   # also the README's picture
#
# Everything is written under a temporary folder (XDG_* point there too).
source "$(dirname "$0")/bench-lib.sh"
chromium=(chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --disable-extensions
          "--user-data-dir=$work/profile")

# STEPS steps: a conversation, a message every 50 steps, the agent's every
# 25 (pushed to the client), a lost request and an offline window every
# 1,000, inspections, expects and clock moves (hours of virtual time).
awk -v steps="$STEPS" 'BEGIN {
    print "user set alice"; print "watch conversations"; print "start conversation"
    print "send c1 text \"first\""; print "watch items c1"
    for (n = 5; n < steps; n++) {
        if (n % 1000 == 500) print "net fail 1"
        else if (n % 1000 == 600) print "net offline"
        else if (n % 1000 == 700) print "net online"
        else if (n % 50 == 0) print "send c1 text \"message " n "\""
        else if (n % 25 == 0) print "agent say c1 \"answer " n "\""
        else if (n % 3 == 0) print "clock advance 1s"
        else if (n % 3 == 1) print "expect client.user == alice"
        else print "m1.state"
    }
}' > "$work/script.chat"
"$bin" run "$work/script.chat" --db "$work/bench.sqlite" --name bench >/dev/null 2>&1 || true

printf '<!DOCTYPE html><html><body></body></html>' > "$work/empty.html"
render=(); open=(); empty=()
for run in $(seq "$RUNS"); do
    render+=("$(elapsed "$bin" sessions show bench --db "$work/bench.sqlite" --html "$work/bench.html")")
    open+=("$(elapsed "${chromium[@]}" --dump-dom "file://$work/bench.html")")
    empty+=("$(elapsed "${chromium[@]}" --dump-dom "file://$work/empty.html")")
done
steps=$(sqlite3 "$work/bench.sqlite" "SELECT COUNT(*) FROM step")
rows=$(sqlite3 "$work/bench.sqlite" "SELECT COUNT(*) FROM traffic")
events=$(sqlite3 "$work/bench.sqlite" "SELECT COUNT(*) FROM event")
bytes=$(stat -c %s "$work/bench.html")
sections=$("${chromium[@]}" --dump-dom "file://$work/bench.html" 2>/dev/null | grep -o '<section class="step ' | wc -l)
printf 'session: %d steps, %d events, %d traffic rows\n' "$steps" "$events" "$rows"
printf 'html: %.2f MB (%d bytes), %d step bands in the browser'"'"'s DOM\n' "$(echo "$bytes / 1000000" | bc -l)" "$bytes" "$sections"
printf 'render (sessions show --html, whole process): %.3f s\n' "$(printf '%s\n' "${render[@]}" | median)"
printf 'open in headless chromium (--dump-dom):       %.3f s\n' "$(printf '%s\n' "${open[@]}" | median)"
printf 'chromium on an empty page, for comparison:     %.3f s\n' "$(printf '%s\n' "${empty[@]}" | median)"

if [ -n "${SCREENSHOT:-}" ]; then
    # The README's picture: a short session with faults, 1200×800.
    printf '%s\n' 'user set alice' 'start conversation' 'send c1 text "one"' 'watch items c1' 'agent say c1 "hello"' \
        'net fail 1' 'send c1 text "two"' 'net offline' 'send c1 text "three"' 'net online' 'clock advance 2s' \
        'expect m3.state == sent' > "$work/shot.chat"
    "$bin" run "$work/shot.chat" --db "$work/shot.sqlite" --name faults >/dev/null 2>&1 || true
    "$bin" sessions show faults --db "$work/shot.sqlite" --html "$work/shot.html" >/dev/null
    "${chromium[@]}" --screenshot="$work/shot.png" --window-size=1200,800 --hide-scrollbars "file://$work/shot.html" 2>/dev/null
    cp "$work/shot.png" "$SCREENSHOT"
    echo "screenshot: $SCREENSHOT ($(stat -c %s "$SCREENSHOT") bytes)"
fi
