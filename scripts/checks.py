"""What scripts/server_checks.py and scripts/recording_queries_check.py share:
one line per check, and an exit status naming how many failed."""
import sys

failures = []


def check(label, condition, detail=""):
    print(("ok   " if condition else "FAIL ") + label + ("" if condition else f": {detail}"))
    if not condition:
        failures.append(label)


def finish(name):
    if failures:
        print(f"{name}: {len(failures)} failed", file=sys.stderr)
        sys.exit(1)
    print(f"{name}: all passed")
