# Shared by the scripts that start `chatbench serve` on loopback (sourced,
# not run). `$CHATBENCH` is the binary (built in debug when unset).
#
#   start_serve DIR [ARGS...]   serve --port 0 ARGS in the background, its
#                               standard output in DIR/serve.out and its
#                               log in DIR/serve.log; waits (10 s at most)
#                               for its "listening on" line and sets
#                               serve_pid and serve_url. Returns 1, after
#                               printing the log, when it did not start.

if [[ -z "${CHATBENCH:-}" ]]; then
    swift build --product chatbench >/dev/null
    CHATBENCH="$(swift build --show-bin-path)/chatbench"
fi

start_serve() {
    local dir=$1
    shift
    "$CHATBENCH" serve --port 0 "$@" >"$dir/serve.out" 2>"$dir/serve.log" &
    serve_pid=$!
    for _ in $(seq 100); do
        grep -q "listening on" "$dir/serve.out" 2>/dev/null && break
        sleep 0.1
    done
    serve_url="$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$dir/serve.out")"
    [[ -n "$serve_url" ]] || { echo "the server did not start:" >&2; cat "$dir/serve.log" >&2; return 1; }
}
