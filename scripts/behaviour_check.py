#!/usr/bin/env python3
"""Keeps docs/behaviour.md and the code's requirement ids in step.

Comments in Sources/ and Tests/ cite behaviours by id (C1, A12, D6, W4...).
This check fails (exit 1, one line per problem) when:

- a comment cites an id that has no heading in docs/behaviour.md;
- docs/behaviour.md has two headings for one id;
- a relative link in docs/behaviour.md points at a file that does not exist,
  or at an anchor (#...) that no heading of its target makes.

Only comments count (`//`, `///`, `/* */`): the source is tokenised so that
string literals (plain, raw `#"..."#`, multi-line, with interpolations) are
skipped, and an `A1` in code or in a string is never taken for an id. A range
written `A5–A14` (or `A5-A14`, `A5…A14`, `A5...A14`) cites every id in it.
(A regex literal holding a double quote, `/"x/`, is not understood; none
exists in the code today.)

On success it prints one line:
    behaviour ids: 41 cited, all defined (44 headings); 130 links, all resolve

Usage: scripts/behaviour_check.py [REPO_ROOT]   (default: this script's repo)
Standard library only.
"""

import os
import re
import sys
from pathlib import Path

FAMILIES = "CADSW"
ID = re.compile(r"\b([" + FAMILIES + r"])([0-9]{1,2})\b")
RANGE = re.compile(r"\b([" + FAMILIES + r"])([0-9]{1,2})\s*(?:–|—|-|…|\.\.\.)\s*([" + FAMILIES + r"])([0-9]{1,2})\b")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
HEADING_ID = re.compile(r"^([" + FAMILIES + r"][0-9]{1,2})\b")
LINK = re.compile(r"(?<!!)\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
SOURCE_SUFFIXES = {".swift", ".c", ".h", ".m"}
DOC = Path("docs/behaviour.md")


def comments(text):
    """Yields (line number, comment text) for every comment of a Swift (or C)
    source, skipping string literals. Block comments yield one item per line."""
    i, n, line = 0, len(text), 1
    # A stack of what we are inside: ("code", paren depth) for code (the
    # bottom one, and each interpolation), ("string", hashes, multiline).
    stack = [("code", 0)]
    while i < n:
        c = text[i]
        top = stack[-1]
        if top[0] == "code":
            if c == "\n":
                line += 1
                i += 1
            elif text.startswith("//", i):
                end = text.find("\n", i)
                end = n if end < 0 else end
                yield line, text[i + 2:end]
                i = end
            elif text.startswith("/*", i):
                depth, j, start_line, chunk = 1, i + 2, line, []
                while j < n and depth:
                    if text.startswith("/*", j):
                        depth += 1
                        j += 2
                    elif text.startswith("*/", j):
                        depth -= 1
                        j += 2
                    else:
                        chunk.append(text[j])
                        j += 1
                for k, part in enumerate("".join(chunk).split("\n")):
                    yield start_line + k, part
                line += text.count("\n", i, j)
                i = j
            elif c == "#" or c == '"':
                m = re.compile(r'(#*)("""|")').match(text, i)
                if m is None:  # a `#` that opens no string: #if, #file, #expect...
                    i += 1
                    continue
                hashes, quote = len(m.group(1)), m.group(2)
                stack.append(("string", hashes, quote == '"""'))
                i = m.end()
            elif c == "(":
                stack[-1] = ("code", top[1] + 1)
                i += 1
            elif c == ")":
                if top[1] == 0 and len(stack) > 1:
                    stack.pop()  # the end of an interpolation: back in its string
                else:
                    stack[-1] = ("code", max(0, top[1] - 1))
                i += 1
            else:
                i += 1
        else:
            _, hashes, multiline = top
            pounds = "#" * hashes
            if c == "\n":
                line += 1
                i += 1
                if not multiline:  # an unterminated one-line string: give up on it
                    stack.pop()
            elif text.startswith("\\" + pounds, i):
                j = i + 1 + hashes
                if j < n and text[j] == "(":
                    stack.append(("code", 0))
                    i = j + 1
                else:
                    i = j + 1  # the escaped character (a newline is counted above only if not skipped)
                    if j < n and text[j] == "\n":
                        line += 1
            elif multiline and text.startswith('"""' + pounds, i):
                stack.pop()
                i += 3 + hashes
            elif not multiline and text.startswith('"' + pounds, i):
                stack.pop()
                i += 1 + hashes
            else:
                i += 1


def cited_ids(comment):
    """The ids a comment cites, ranges expanded."""
    ids = set()
    for m in RANGE.finditer(comment):
        first, low, last, high = m.group(1), int(m.group(2)), m.group(3), int(m.group(4))
        if first == last and low < high:
            ids.update(f"{first}{k}" for k in range(low, high + 1))
    for m in ID.finditer(comment):
        ids.add(m.group(1) + str(int(m.group(2))))
    return ids


def slug(heading):
    """The anchor GitHub makes for a heading."""
    text = re.sub(r"[`*_]|\[|\]\([^)]*\)", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def headings(path):
    """(line, level, text) of every heading of a Markdown file, outside fences."""
    found, fence = [], None
    for number, raw in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        stripped = raw.strip()
        marker = re.match(r"^(`{3,}|~{3,})", stripped)
        if marker:
            if fence is None:
                fence = marker.group(1)
            elif stripped.startswith(fence):
                fence = None
            continue
        if fence is None:
            m = HEADING.match(raw)
            if m:
                found.append((number, len(m.group(1)), m.group(2)))
    return found


def anchors(path):
    made, counts = set(), {}
    for _, _, text in headings(path):
        base = slug(text)
        k = counts.get(base, 0)
        counts[base] = k + 1
        made.add(base if k == 0 else f"{base}-{k}")
    return made


def links(path):
    """(line, target) of every Markdown link outside code."""
    fence = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        stripped = raw.strip()
        marker = re.match(r"^(`{3,}|~{3,})", stripped)
        if marker:
            fence = marker.group(1) if fence is None else (None if stripped.startswith(fence) else fence)
            continue
        if fence is not None:
            continue
        prose = re.sub(r"`[^`]*`", "", raw)
        for m in LINK.finditer(prose):
            yield number, m.group(1)


def main(argv):
    root = Path(argv[1]).resolve() if len(argv) > 1 else Path(__file__).resolve().parent.parent
    doc = root / DOC
    problems = []
    if not doc.is_file():
        print(f"{DOC}: missing: every requirement id cited in Sources/ and Tests/ needs a heading there")
        return 1

    defined = {}
    for number, _, text in headings(doc):
        m = HEADING_ID.match(text)
        if m:
            if m.group(1) in defined:
                problems.append(f"{DOC}:{number}: a second heading for {m.group(1)} (the first is on line {defined[m.group(1)]})")
            else:
                defined[m.group(1)] = number

    cited = {}
    for folder in ("Sources", "Tests"):
        for directory, subdirectories, files in os.walk(root / folder):
            subdirectories.sort()
            for name in sorted(files):
                path = Path(directory) / name
                if path.suffix not in SOURCE_SUFFIXES:
                    continue
                text = path.read_text(encoding="utf-8", errors="replace")
                relative = path.relative_to(root)
                for number, comment in comments(text):
                    for ident in cited_ids(comment):
                        cited.setdefault(ident, []).append(f"{relative}:{number}")

    def order(ident):
        return (FAMILIES.index(ident[0]), int(ident[1:]))

    for ident in sorted(cited, key=order):
        if ident not in defined:
            places = cited[ident]
            more = f" (and {len(places) - 1} more)" if len(places) > 1 else ""
            problems.append(f"{places[0]}: cites {ident}, which has no heading in {DOC}{more}")

    count = 0
    own_anchors = anchors(doc)
    for number, target in links(doc):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, mailto:...
            continue
        count += 1
        file_part, _, fragment = target.partition("#")
        destination = (doc.parent / file_part).resolve() if file_part else doc
        if file_part and not destination.exists():
            problems.append(f"{DOC}:{number}: link {target}: no such file")
            continue
        if fragment:
            if destination.suffix == ".md" and destination.is_file():
                made = own_anchors if destination == doc else anchors(destination)
                if fragment not in made:
                    problems.append(f"{DOC}:{number}: link {target}: no heading makes the anchor #{fragment}")

    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"behaviour ids: {len(cited)} cited, all defined ({len(defined)} headings); {count} links, all resolve")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
