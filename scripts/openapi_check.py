#!/usr/bin/env python3
"""Checks the server's answers against docs/openapi.json (issue 13, item 7).

    scripts/openapi_check.py EXCHANGE_LOG

EXCHANGE_LOG is the JSON-lines file `chatbench test --server fresh` writes
with CHATBENCH_EXCHANGE_LOG set: one line per HTTP response
({"method", "path", "status", "body"}) and per event-stream frame
({"frame"}). Each response must have a documented status for its operation,
and its body must validate against that status' schema; each frame must be a
Ready or an Event. The document's response schemas forbid additional
properties, so an extra field fails too. Exits 1 listing the first failures.
"""
import json
import os
import re
import sys
from collections import Counter

from openapi_schema_validator import OAS30Validator

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_document():
    with open(os.path.join(ROOT, "docs", "openapi.json"), encoding="utf-8") as file:
        return json.load(file)


def route_matcher(document):
    routes = []
    for template, item in document["paths"].items():
        pattern = "^" + re.sub(r"\{[^/]+\}", "[^/]+", template) + "$"
        # Literal segments win over captures: sort by the number of captures.
        routes.append((template.count("{"), re.compile(pattern), template, item))
    routes.sort(key=lambda route: route[0])

    def match(method, path):
        for _, pattern, template, item in routes:
            if pattern.match(path) and method.lower() in item:
                return template, item[method.lower()]
        return None, None
    return match


_validators = {}


def validator(document, schema):
    key = id(schema)
    if key not in _validators:
        _validators[key] = OAS30Validator({"components": document["components"], **schema})
    return _validators[key]


def main():
    document = load_document()
    match = route_matcher(document)
    frame_schema = validator(document, {"oneOf": [{"$ref": "#/components/schemas/Ready"}, {"$ref": "#/components/schemas/Event"}]})
    failures = []
    counts = Counter()
    with open(sys.argv[1], encoding="utf-8") as log:
        for number, line in enumerate(log, 1):
            entry = json.loads(line)
            if "frame" in entry:
                counts["frames"] += 1
                errors = list(frame_schema.iter_errors(json.loads(entry["frame"])))
                if errors:
                    failures.append(f"line {number}: frame {entry['frame'][:120]}: {errors[0].message[:200]}")
                continue
            counts["responses"] += 1
            label = f"{entry['method']} {entry['path']} {entry['status']}"
            template, operation = match(entry["method"], entry["path"])
            if operation is None:
                if entry["status"] not in (404, 405):
                    failures.append(f"line {number}: {label}: no documented operation")
                continue
            response = operation["responses"].get(str(entry["status"]))
            if response is None:
                failures.append(f"line {number}: {label}: status not documented for {entry['method']} {template}")
                continue
            content = response.get("content", {})
            if any(media.get("schema", {}).get("format") == "binary" for media in content.values()):
                # Bytes (GET /v1/attachments/{id}: `*/*`, the attachment's own
                # type): any body is as documented.
                continue
            schema = content.get("application/json", {}).get("schema")
            if schema is None:
                if entry["body"]:
                    failures.append(f"line {number}: {label}: a body where the document has none")
                continue
            try:
                body = json.loads(entry["body"])
            except ValueError:
                failures.append(f"line {number}: {label}: the body is not JSON")
                continue
            errors = list(validator(document, schema).iter_errors(body))
            if errors:
                failures.append(f"line {number}: {label}: {errors[0].message[:300]}")
    print(f"openapi check: {counts['responses']} responses, {counts['frames']} frames, {len(failures)} not as documented")
    for failure in failures[:20]:
        print("  " + failure)
    if failures or counts["responses"] == 0:
        sys.exit(1)


if __name__ == "__main__":
    main()
