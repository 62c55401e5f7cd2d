#!/usr/bin/env bash
# The code swift-openapi-generator makes from docs/openapi.json is committed
# (issue 28): the API's types once (ChatAPI), ChatSDKNetwork's client and
# ChatServer's handler protocol, each in its Generated/ folder, made as its
# openapi-generator-config.yaml says.
# So neither an app that embeds the SDK nor this package's build builds the
# generator: it is built here alone, in its own package (scripts/openapi-generator).
#
#   scripts/openapi-generate.sh           # regenerate after changing docs/openapi.json
#   scripts/openapi-generate.sh --check   # fail if the committed code is not what the document gives
set -euo pipefail
cd "$(dirname "$0")/.."

check=0
case "${1:-}" in
    --check) check=1 ;;
    "") ;;
    *) echo "usage: scripts/openapi-generate.sh [--check]" >&2; exit 2 ;;
esac

tool=scripts/openapi-generator
swift build --package-path "$tool" --product swift-openapi-generator >"$tool.log" 2>&1 || { cat "$tool.log" >&2; exit 1; }
generator="$(swift build --package-path "$tool" --show-bin-path)/swift-openapi-generator"
rm -f "$tool.log"

fresh="$(mktemp -d)"
trap 'rm -rf "$fresh"' EXIT
status=0
for target in Sources/ChatAPI Sources/ChatSDKNetwork Sources/ChatServer; do
    out="$fresh/$(basename "$target")"
    "$generator" generate docs/openapi.json --config "$target/openapi-generator-config.yaml" \
        --output-directory "$out" >"$fresh/log" 2>&1 || { cat "$fresh/log" >&2; exit 1; }
    if [ "$check" = 1 ]; then
        if diff -r "$out" "$target/Generated" >"$fresh/diff" 2>&1; then
            echo "generated code: $target/Generated ($(ls "$out" | wc -l) files) matches docs/openapi.json"
        else
            echo "generated code: $target/Generated is not what docs/openapi.json gives; run scripts/openapi-generate.sh" >&2
            head -40 "$fresh/diff" >&2
            status=1
        fi
    else
        rm -rf "$target/Generated"
        mkdir -p "$target/Generated"
        cp "$out"/*.swift "$target/Generated/"
        echo "generated code: $(ls "$target/Generated" | wc -l) files written to $target/Generated"
    fi
done
exit "$status"
