#!/usr/bin/env bash
# Installs chatbench: a release build, the binary into PREFIX/bin, and the
# completion scripts where bash, zsh and fish look for them.
#
#   scripts/install.sh              # PREFIX = ~/.local (bin: ~/.local/bin)
#   scripts/install.sh /usr/local   # a prefix of your choice
#
# CHATBENCH_BINARY=path installs that binary instead of building one.
set -euo pipefail
cd "$(dirname "$0")/.."

prefix="${1:-$HOME/.local}"

if [ -n "${CHATBENCH_BINARY:-}" ]; then
    binary="$CHATBENCH_BINARY"
else
    scripts/setup.sh
    swift build -c release --product chatbench >&2
    binary="$(swift build -c release --show-bin-path)/chatbench"
fi

install -d "$prefix/bin" \
    "$prefix/share/bash-completion/completions" \
    "$prefix/share/zsh/site-functions" \
    "$prefix/share/fish/vendor_completions.d"
install -m 755 "$binary" "$prefix/bin/chatbench"
install -m 644 completions/chatbench.bash "$prefix/share/bash-completion/completions/chatbench"
install -m 644 completions/_chatbench "$prefix/share/zsh/site-functions/_chatbench"
install -m 644 completions/chatbench.fish "$prefix/share/fish/vendor_completions.d/chatbench.fish"

echo "installed $prefix/bin/chatbench"
case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "note: $prefix/bin is not on your PATH: add  export PATH=\"$prefix/bin:\$PATH\"  to your shell's start-up file" ;;
esac
echo "zsh: completion needs $prefix/share/zsh/site-functions in fpath (fpath+=($prefix/share/zsh/site-functions) before compinit)"
