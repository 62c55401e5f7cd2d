#!/usr/bin/env python3
"""Runs every query of docs/recording-schema.md (issue 13, item 11).

    scripts/recording_queries_check.py PATH/TO/chatbench

Records an embedded session (examples/05-watchers.chat) and a server session
(SERVER_SCRIPT against a `chatbench serve` started here) into
one file, then runs each `sqlite3 "$db" "…"` query of the document's Queries
section against it, for each session where the query names one, and checks
what the answers mean: times since the start are within the session, failed
requests are errors, and so on. Exits 1 naming each failure.
"""
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish


def queries():
    text = open(os.path.join(ROOT, "docs", "recording-schema.md"), encoding="utf-8").read()
    section = text.split("## Queries", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    found = []
    for comments, query in re.findall(r'((?:# [^\n]*\n)+)sqlite3 "\$db" "(.*?)"\n', section, re.S):
        comment = " ".join(line[2:].strip() for line in comments.splitlines())
        found.append((comment, " ".join(query.split())))
    return found


# A server session with watcher emissions, the other side's calls (answered
# `ok`), and a refused sign-in (an `error` answer on the tape).
SERVER_SCRIPT = """user set alice
watch conversations
start conversation --title Knee
send c1 text "Hello"
agent say c1 "How can I help?"
expect m1.state == sent
disconnect
server settings allowUserIdOnly=false
connect carol
"""


def record(binary, db):
    env = dict(os.environ)
    subprocess.run([binary, "run", os.path.join(ROOT, "examples", "05-watchers.chat"), "--db", db],
                   check=False, capture_output=True, env=env, timeout=120)
    server = subprocess.Popen([binary, "serve", "--port", "0", "--db", ":memory:", "--log-level", "error"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        url = server.stdout.readline().split("listening on ")[1].split(" ")[0]
        subprocess.run([binary, "--server", url, "--db", db], input=SERVER_SCRIPT, text=True,
                       check=False, capture_output=True, env=env, timeout=180)
    finally:
        server.terminate()
        server.wait(timeout=20)


def main():
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory() as folder:
        db = os.path.join(folder, "sessions.sqlite")
        record(binary, db)
        connection = sqlite3.connect(db)
        sessions = dict(connection.execute("SELECT mode, id FROM session").fetchall())
        check("an embedded and a server session were recorded", set(sessions) == {"embedded", "server"}, f"{sessions}")
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        check("a recording that is not a bundle has no bundle table", "bundle" not in tables, f"{sorted(tables)}")
        tape = " ".join(bytes(row[0]).decode() if row[0] else "" for row in connection.execute("SELECT body FROM traffic"))
        check("the tape's bodies hold no API key in clear", "demo-key" not in tape and '"apiKey":"<secret#' in tape)
        found = queries()
        check("the document has its seven queries", len(found) == 7, f"{[c for c, _ in found]}")
        for comment, query in found:
            runs = [(mode, re.sub(r"session_id = \d+", f"session_id = {sessions[mode]}", query)) for mode in sorted(sessions)] \
                if re.search(r"session_id = \d+", query) else [("all", query)]
            for mode, sql in runs:
                try:
                    rows = connection.execute(sql).fetchall()
                except sqlite3.Error as error:
                    check(f"{comment} ({mode})", False, str(error))
                    continue
                if comment.startswith("sessions with their step counts"):
                    ok = len(rows) == 2 and all(row[3] > 0 for row in rows)
                elif comment.startswith("watcher emissions"):
                    ok = len(rows) > 0 and all(0 <= row[0] < 3600 for row in rows)
                elif comment.startswith("the tape"):
                    # Both modes record their traffic (the embedded world at
                    # its simulated network's transport boundary).
                    ok = len(rows) > 0
                elif comment.startswith("requests that failed"):
                    ok = len(rows) > 0 and all(row[0].startswith("error ") for row in rows)
                else:
                    ok = True
                check(f"{comment} ({mode}): {len(rows)} rows", ok, f"{rows[:5]}")
    finish("recording queries")


if __name__ == "__main__":
    main()
