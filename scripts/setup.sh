#!/usr/bin/env bash
# Installs what building chatbench needs beyond Swift: libedit's headers.
# Idempotent: does nothing when pkg-config already finds libedit.
set -euo pipefail

if pkg-config --exists libedit 2>/dev/null; then
    exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
fi
echo "setup: installing libedit-dev" >&2
$sudo apt-get update -qq
$sudo apt-get install -y -qq libedit-dev pkg-config
