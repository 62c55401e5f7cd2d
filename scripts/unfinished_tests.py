#!/usr/bin/env python3
"""Names the tests a `swift test` log shows started and never finished.

scripts/test.sh runs it on the log of a part that ran out of time, so that
a hang names its test. Swift Testing writes "Test NAME started." and later
"Test NAME passed/failed/skipped ..."; a test with arguments also says
"Test case ... started." for each case and finishes once, as a whole.
"""
import re
import sys
from collections import Counter

started, finished = Counter(), Counter()
with open(sys.argv[1], encoding="utf-8", errors="replace") as log:
    for line in log:
        match = re.search(r"Test (\S.*?) started\.", line)
        if match:
            if not match.group(1).startswith(("case ", "run")):
                started[match.group(1)] += 1
            continue
        match = re.search(r"Test (\S.*?) (?:with \d+ test cases? )?(?:passed|failed|skipped)", line)
        if match and not match.group(1).startswith("run "):
            finished[match.group(1)] += 1
left = started - finished
for name in sorted(left):
    print(f"  {name}" + (f" (x{left[name]})" if left[name] > 1 else ""))
if not left:
    print("  (none named in the log)")
