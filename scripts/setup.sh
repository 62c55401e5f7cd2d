#!/usr/bin/env bash
# Installs what building and testing chatbench needs beyond Swift. Each
# requirement is checked on its own and installed only when missing, so a
# second run does nothing (and is fast):
#   - libedit's headers and pkg-config (the line editor);
#   - chromium (the HTML sequence view's browser tests open pages headless).
set -euo pipefail

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
fi

missing=()
if ! pkg-config --exists libedit 2>/dev/null; then
    missing+=(libedit-dev pkg-config)
fi
if ! command -v chromium >/dev/null 2>&1; then
    missing+=(chromium)
fi

if [ "${#missing[@]}" -eq 0 ]; then
    exit 0
fi
echo "setup: installing ${missing[*]}" >&2
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}"
