#!/usr/bin/env bash
# Regenerates completions/ (bash, zsh, fish) from the argument parser.
# Run it after changing the command line; a test fails until you do.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --product chatbench
bin="$(swift build --show-bin-path)/chatbench"

"$bin" --generate-completion-script bash > completions/chatbench.bash
"$bin" --generate-completion-script zsh > completions/_chatbench
"$bin" --generate-completion-script fish > completions/chatbench.fish
echo "completions/: chatbench.bash, _chatbench, chatbench.fish regenerated"
