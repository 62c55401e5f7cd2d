#!/usr/bin/env python3
"""Runs the README's checked shell examples and compares what they print.

A fenced block whose info string is ``sh checked`` is a shell session: each
line that starts with ``$ `` is a command, the lines after it (up to the next
command) its expected standard output. A command may end with a comment
``# exits N``: its exit status must then be N (0 otherwise). In the expected
output, ``[..]`` is any text within a line and a line ``...`` any lines, as in
transcripts. Each block runs in a fresh scratch folder that holds links to the
repository's ``docs`` and ``examples``, with ``chatbench`` on the PATH, so
that a figure the README quotes is one the test command produced (issue 30).

usage: readme_commands_check.py BIN_DIR [README]
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def blocks(text):
    """(first line number, lines) of each ``sh checked`` block."""
    found, current, start = [], None, 0
    for number, line in enumerate(text.splitlines(), 1):
        if current is None and line.strip() == "```sh checked":
            current, start = [], number + 1
        elif current is not None and line.strip() == "```":
            found.append((start, current))
            current = None
        elif current is not None:
            current.append(line)
    return found


def commands(lines, start):
    """(line number, command, expected status, expected lines) per command."""
    result = []
    for offset, line in enumerate(lines):
        if line.startswith("$ "):
            command = line[2:]
            match = re.search(r"#\s*exits (\d+)", command)
            result.append((start + offset, command, int(match.group(1)) if match else 0, []))
        elif result:
            result[-1][3].append(line)
    return result


def line_matches(pattern, line):
    parts = [re.escape(part) for part in pattern.split("[..]")]
    return re.fullmatch(".*".join(parts), line) is not None


def matches(expected, found):
    """Whether `found` lines match `expected` ones, `...` being any lines."""
    if not expected:
        return not found
    if expected[0] == "...":
        return any(matches(expected[1:], found[i:]) for i in range(len(found) + 1))
    return bool(found) and line_matches(expected[0], found[0]) and matches(expected[1:], found[1:])


def main():
    bin_dir = os.path.abspath(sys.argv[1])
    readme = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "README.md")
    with open(readme) as file:
        found_blocks = blocks(file.read())
    if not found_blocks:
        print(f"readme commands: FAIL no ```sh checked block in {readme}")
        return 1
    failures = ran = 0
    for start, lines in found_blocks:
        with tempfile.TemporaryDirectory() as scratch:
            for name in ("docs", "examples"):
                os.symlink(os.path.join(ROOT, name), os.path.join(scratch, name))
            env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"],
                       XDG_DATA_HOME=os.path.join(scratch, ".data"), XDG_STATE_HOME=os.path.join(scratch, ".state"),
                       XDG_CONFIG_HOME=os.path.join(scratch, ".config"), NO_COLOR="1")
            for number, command, status, expected in commands(lines, start):
                ran += 1
                done = subprocess.run(["bash", "-c", command], cwd=scratch, env=env, capture_output=True, text=True,
                                      timeout=300)
                output = done.stdout.splitlines()
                problems = []
                if done.returncode != status:
                    problems.append(f"exit {done.returncode}, expected {status}")
                if not matches(expected, output):
                    problems.append("output differs:\n--- expected\n" + "\n".join(expected)
                                    + "\n--- found\n" + "\n".join(output))
                if problems:
                    failures += 1
                    print(f"FAIL {os.path.basename(readme)}:{number}: $ {command}: " + "; ".join(problems))
                    if done.stderr:
                        print("--- standard error\n" + done.stderr)
                else:
                    print(f"ok   {os.path.basename(readme)}:{number}: $ {command}")
    print(f"readme commands: {ran} commands, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
