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
    # The Swift runtime and Foundation linked in (no shared libraries to
    # load and relocate at each start: `chatbench --version` 13.5 ms →
    # 8.4 ms here), in a build folder of its own so that the debug and
    # release builds of development are not rebuilt. The first build is
    # long (about 20 minutes on 2 cores).
    swift build -c release --static-swift-stdlib --scratch-path .build-static --product chatbench >&2
    binary="$(swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)/chatbench"
fi

install -d "$prefix/bin" \
    "$prefix/share/bash-completion/completions" \
    "$prefix/share/zsh/site-functions" \
    "$prefix/share/fish/vendor_completions.d"
install -m 755 "$binary" "$prefix/bin/chatbench"
# Without its debug information (a quarter of its size); the symbols stay,
# so that a crash's backtrace still names functions.
strip --strip-debug "$prefix/bin/chatbench" 2>/dev/null || true
install -m 644 completions/chatbench.bash "$prefix/share/bash-completion/completions/chatbench"
install -m 644 completions/_chatbench "$prefix/share/zsh/site-functions/_chatbench"
install -m 644 completions/chatbench.fish "$prefix/share/fish/vendor_completions.d/chatbench.fish"

echo "installed $prefix/bin/chatbench"
case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "note: $prefix/bin is not on your PATH: add  export PATH=\"$prefix/bin:\$PATH\"  to your shell's start-up file" ;;
esac
echo "zsh: completion needs $prefix/share/zsh/site-functions in fpath (fpath+=($prefix/share/zsh/site-functions) before compinit)"
