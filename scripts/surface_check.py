#!/usr/bin/env python3
"""The wire format stays out of the SDK's public API (issue 14).

ChatSDK and ChatSDKNetwork must import ChatCore with an access level below
public (`internal import ChatCore` or `package import ChatCore`): then the
compiler refuses any public declaration that mentions a wire type. This
check fails on what would undo that: an `@_exported` import, or an import of
ChatCore that is public (explicitly, or implicitly: a bare `import` is public
in the Swift 6 language mode)."""
import pathlib
import re
import sys

from checks import check, finish

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODULES = ["ChatSDK", "ChatSDKNetwork"]
IMPORT = re.compile(r"^\s*(?:@\w+\s+)*(?:(public|package|internal|fileprivate|private)\s+)?import\s+(?:\w+\s+)?(ChatCore)\b")

files = sorted(path for module in MODULES for path in (ROOT / "Sources" / module).rglob("*.swift"))
check("the SDK's sources are found", len(files) > 10, f"{len(files)} files")
for path in files:
    name = path.relative_to(ROOT)
    for number, line in enumerate(path.read_text().splitlines(), 1):
        where = f"{name}:{number}: {line.strip()}"
        if re.match(r"^\s*@_exported\b", line):
            check(f"{name}:{number} re-exports nothing", False, where)
        match = IMPORT.match(line)
        if match:
            level = match.group(1)
            check(f"{name}:{number} imports ChatCore below public", level not in (None, "public"), where)
finish("surface")
