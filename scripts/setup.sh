#!/usr/bin/env bash
# Installs what building and testing chatbench needs beyond Swift: libedit's
# headers (the line editor) and xmllint (the JUnit report is validated
# against its schema). Idempotent and fast when all is there: each
# requirement is checked on its own, and apt runs only for what is missing.
set -euo pipefail

missing=()
pkg-config --exists libedit 2>/dev/null || missing+=(libedit-dev pkg-config)
command -v xmllint >/dev/null 2>&1 || missing+=(libxml2-utils)

[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
fi
echo "setup: installing ${missing[*]}" >&2
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}"
