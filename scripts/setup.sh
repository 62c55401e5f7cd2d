#!/usr/bin/env bash
# Installs what building and testing chatbench needs beyond Swift. Each
# requirement is checked on its own and installed only when missing, so a
# second run does nothing and takes well under a second.
#   - libedit's headers (the REPL's line editor), through apt;
#   - openapi-spec-validator (scripts/test.sh validates docs/openapi.json),
#     through pip.
set -euo pipefail

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
fi

if ! pkg-config --exists libedit 2>/dev/null; then
    echo "setup: installing libedit-dev" >&2
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq libedit-dev pkg-config
fi

if ! command -v python3 >/dev/null 2>&1; then
    echo "setup: installing python3" >&2
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq python3 python3-pip
fi

# openapi-spec-validator brings jsonschema, which scripts/openapi_check.py
# also uses to validate the server's answers against the document.
if ! python3 -c 'import openapi_spec_validator, jsonschema' 2>/dev/null; then
    echo "setup: installing openapi-spec-validator" >&2
    python3 -m pip install -q 'openapi-spec-validator>=0.7' \
        || python3 -m pip install -q --break-system-packages 'openapi-spec-validator>=0.7'
fi
