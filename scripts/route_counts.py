#!/usr/bin/env python3
"""Counts the answers of a `chatbench serve` run per documented route, from
its request log (serve's standard error at --log-level info: one
"METHOD PATH STATUS … ms" line per request), and checks that the user routes
got through authentication: each must have at least MIN 2xx answers.

    scripts/route_counts.py SERVE_LOG [--skip-lines N] [--issued FILE] [--min MIN]

--skip-lines leaves out the log's first N lines (the set-up's requests);
--issued is the hooks' count of tokens they issued (one line each), taken
off POST /v1/app/tokens. User routes: those whose security names the
BearerToken scheme, and POST /v1/auth/refresh; GET /v1/events is left out
of the check (its 2xx is a WebSocket upgrade, which schemathesis does not
make). Prints a table; exit status 1 when a user route is under MIN.
"""

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINE = re.compile(r"\b(GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS) (/\S*) (\d{3}) ")


def routes():
    document = json.loads((ROOT / "docs" / "openapi.json").read_text())
    found = []
    for path, operations in document["paths"].items():
        pattern = re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path)) + "$")
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            security = operation.get("security", document.get("security", []))
            user = any("BearerToken" in entry for entry in security) or path == "/v1/auth/refresh"
            found.append((method.upper(), path, pattern, user))
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("log")
    parser.add_argument("--skip-lines", type=int, default=0)
    parser.add_argument("--issued")
    parser.add_argument("--min", type=int, default=1)
    arguments = parser.parse_args()

    table = routes()
    counts = {(method, path): Counter() for method, path, _, _ in table}
    lines = Path(arguments.log).read_text(errors="replace").splitlines()[arguments.skip_lines :]
    for line in lines:
        match = LINE.search(line)
        if not match:
            continue
        method, path, status = match.group(1), match.group(2), int(match.group(3))
        for route_method, route_path, pattern, _ in table:
            if route_method == method and pattern.match(path):
                counts[(route_method, route_path)][status // 100] += 1
                break
    issued = 0
    if arguments.issued and Path(arguments.issued).exists():
        issued = len(Path(arguments.issued).read_text().splitlines())
        counts[("POST", "/v1/app/tokens")][2] -= issued

    low = []
    print(f"{'route':<52} {'2xx':>5} {'4xx':>5} {'5xx':>5}  user")
    for method, path, _, user in table:
        count = counts[(method, path)]
        print(f"{method + ' ' + path:<52} {count[2]:>5} {count[4]:>5} {count[5]:>5}  {'yes' if user else ''}")
        if user and path != "/v1/events" and count[2] < arguments.min:
            low.append(f"{method} {path}")
    if issued:
        print(f"(POST /v1/app/tokens: the hooks' {issued} tokens, one per user-route case, are left out)")
    if low:
        print(f"user routes with fewer than {arguments.min} authenticated 2xx: {', '.join(low)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
