#!/usr/bin/env bash
# What a minimal app pays for embedding the SDK (issue 28, item 1): a package
# of its own in a temporary folder that depends on a chatbench checkout by
# path, adds the ChatSDK and ChatSDKNetwork products, and configures a
# client, signs in and sends one message. Prints, for that app:
#
#   packages resolved   the pins of its Package.resolved
#   first debug build   wall time of `swift build` on a clean .build (after
#                       resolving), with the machine's load before it
#   targets compiled    the targets compiled for it, Swift and C (the
#                       folders of .build/debug that hold object files:
#                       SwiftPM makes a folder for every target of the
#                       graph, built or not), the Swift modules among
#                       them, and the build's steps
#   release size        `swift build -c release`'s executable, stripped
#
#   scripts/measure-app-graph.sh [CHATBENCH_DIR] [WORK_DIR]
#
# CHATBENCH_DIR defaults to this checkout (measure another tree, say a
# pristine copy of an earlier commit, by naming it); WORK_DIR, where the
# app and its builds go, to a new temporary folder, kept afterwards. Set
# SKIP_RELEASE=1 to leave out the release build (the longest step).
set -euo pipefail

chatbench="$(cd "${1:-$(dirname "$0")/..}" && pwd)"
work="${2:-$(mktemp -d /tmp/measure-app-graph.XXXXXX)}"
mkdir -p "$work/app/Sources/MinimalApp"
app="$work/app"
# A package that has traits (its default, Workbench, is the server's and
# the REPL's) is asked for none, as docs/integration.md tells an app to.
traits=""
if grep -q '^    traits:' "$chatbench/Package.swift"; then traits=", traits: []"; fi

cat >"$app/Package.swift" <<EOF
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "MinimalApp",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(path: "$chatbench"$traits)],
    targets: [
        .executableTarget(
            name: "MinimalApp",
            dependencies: [
                .product(name: "ChatSDK", package: "$(basename "$chatbench")"),
                .product(name: "ChatSDKNetwork", package: "$(basename "$chatbench")"),
            ])
    ]
)
EOF

cat >"$app/Sources/MinimalApp/main.swift" <<'EOF'
import ChatSDK
import ChatSDKNetwork

// Against `chatbench serve` on its default port and its demo app: signs in
// as alice through tokens the app's backend issues, starts a conversation on
// the server and hands one message to the outbox (it prints `toBeSent`: the
// app exits before the outbox sends it).
let server = CommandLine.arguments.dropFirst().first ?? "http://127.0.0.1:8080"
let backend = AppBackendClient(baseURL: server, apiKey: "demo-key", secret: "demo-secret-0123456789abcdef")
var configuration = ChatClient.Configuration(
    apiKey: "demo-key", transport: .http(baseURL: server), runtime: .realTime())
configuration.cacheMode = .memory
let client = ChatClient(configuration: configuration, tokenProvider: backend.tokenProvider)
try await client.setCurrentUser(userId: "alice")
let conversation = try await client.startConversation(title: "Hello")
let message = try await client.sendMessage(.text("Hello, doctor"), in: conversation.id)
print("sent \(message.id) in \(conversation.id): \(message.state)")
EOF

cd "$app"
rm -rf .build Package.resolved
echo "measure: app in $app, chatbench at $chatbench" >&2
swift package resolve >"$work/resolve.log" 2>&1
pins="$(grep -c '"identity"' Package.resolved 2>/dev/null || echo 0)"

load="$(uptime | sed 's/.*load average: //')"
start="$(date +%s.%N)"
swift build >"$work/debug.log" 2>&1
end="$(date +%s.%N)"
debug_seconds="$(echo "$end - $start" | bc)"
load_after="$(uptime | sed 's/.*load average: //')"
compiled="$(for folder in .build/debug/*.build; do
    if find "$folder" -name '*.o' -print -quit | grep -q .; then basename "$folder" .build; fi
done | sort)"
targets="$(echo "$compiled" | wc -l)"
plugins="$(echo "$compiled" | grep -c -- '-tool$' || true)"
modules="$(find .build/debug/Modules -maxdepth 1 -name '*.swiftmodule' 2>/dev/null | wc -l)"

echo "packages resolved: $pins"
grep '"identity"' Package.resolved | cut -d'"' -f4 | tr '\n' ' ' | fold -s -w 100 | sed 's/^/  /'
echo
printf 'first debug build: %.0f s (load average before %s, after %s)\n' "$debug_seconds" "$load" "$load_after"
steps="$(grep -o '^\[[0-9]*/[0-9]*\]' "$work/debug.log" | tail -1 | tr -d '[]' | cut -d/ -f2)"
echo "targets compiled: $targets ($modules Swift modules, $plugins of them for build plugins (-tool); $steps build steps)"
echo "$compiled" | tr '\n' ' ' | fold -s -w 100 | sed 's/^/  /'
echo

if [ "${SKIP_RELEASE:-0}" != 1 ]; then
    start="$(date +%s.%N)"
    swift build -c release >"$work/release.log" 2>&1
    end="$(date +%s.%N)"
    binary="$(swift build -c release --show-bin-path)/MinimalApp"
    cp "$binary" "$work/MinimalApp.stripped"
    strip "$work/MinimalApp.stripped"
    size="$(stat -c %s "$work/MinimalApp.stripped")"
    printf 'release build: %.0f s; unstripped %s bytes\n' "$(echo "$end - $start" | bc)" "$(stat -c %s "$binary")"
    printf 'stripped release size: %s bytes (%.1f MB)\n' "$size" "$(echo "$size / 1000000" | bc -l)"
fi
