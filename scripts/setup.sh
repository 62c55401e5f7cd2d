#!/usr/bin/env bash
# Installs what building chatbench needs beyond Swift, and with --tests what
# its tests need too (scripts/test.sh and .ci/run pass it; the REPL does not
# need a browser or the Python checkers). Each requirement is checked on its
# own and installed only when missing, so a second run does nothing and takes
# well under a second.
#   - libedit's headers and pkg-config (the REPL's line editor), through apt;
# With --tests:
#   - chromium (the HTML sequence view's browser tests open pages headless), through apt;
#   - xmllint (the JUnit report is validated against its schema), through apt;
#   - the sqlite3 shell (a checked README block makes an app's diagnostics
#     file with it), through apt;
#   - openapi-spec-validator and schemathesis (scripts/test.sh validates
#     docs/openapi.json and fuzzes the server from it), through pip.
set -euo pipefail

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
fi

tests=false
case "${1:-}" in
    --tests) tests=true ;;
    "") ;;
    *)
        echo "usage: scripts/setup.sh [--tests]" >&2
        exit 2
        ;;
esac

missing=()
if ! pkg-config --exists libedit 2>/dev/null; then
    missing+=(libedit-dev pkg-config)
fi
if $tests && ! command -v chromium >/dev/null 2>&1; then
    missing+=(chromium)
fi
if $tests && ! command -v xmllint >/dev/null 2>&1; then
    missing+=(libxml2-utils)
fi
if $tests && ! command -v sqlite3 >/dev/null 2>&1; then
    missing+=(sqlite3)
fi
if $tests && ! command -v python3 >/dev/null 2>&1; then
    missing+=(python3 python3-pip)
fi
if [ "${#missing[@]}" -gt 0 ]; then
    echo "setup: installing ${missing[*]}" >&2
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq "${missing[@]}"
fi

$tests || exit 0

pip_install() {
    echo "setup: installing $*" >&2
    python3 -m pip install -q "$@" || python3 -m pip install -q --break-system-packages "$@"
}

# openapi-spec-validator brings openapi-schema-validator, which
# scripts/openapi_check.py uses to check the server's answers against the document.
if ! python3 -c 'import openapi_spec_validator, openapi_schema_validator' 2>/dev/null; then
    pip_install 'openapi-spec-validator>=0.7'
fi

# httpx and websockets: scripts/third_party_client.py, a client written from the document alone.
if ! python3 -c 'import httpx, websockets' 2>/dev/null; then
    pip_install 'httpx>=0.27' 'websockets>=13'
fi

# schemathesis: scripts/schemathesis_check.sh fuzzes `chatbench serve` from the document.
if ! command -v schemathesis >/dev/null 2>&1; then
    pip_install 'schemathesis>=4'
fi

# PyYAML: scripts/ci_files_check.py parses docs/ci/'s GitHub and GitLab files.
if ! python3 -c 'import yaml' 2>/dev/null; then
    pip_install 'pyyaml>=6'
fi
