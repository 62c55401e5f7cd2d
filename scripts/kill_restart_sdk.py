#!/usr/bin/env python3
"""The outbox over a real network (issue 25, D7): CLIENTS SDK clients
(`chatbench --server URL` REPL processes, each one app on its own device)
send MESSAGES messages each in a conversation of their own, while
`chatbench serve --db FILE --port P` is killed with SIGKILL and restarted on
the same file and port KILLS times. No manual retry: the SDK sends again by
itself. Then the server's database must hold every message exactly once, in
the order each client sent them, and every client must see each of its
messages `sent`. Loopback only, bounded in time.

Usage: kill_restart_sdk.py CHATBENCH_BINARY [--clients N] [--messages M]
                           [--kills K] [--down SECONDS] [--settle SECONDS]
                           [--no-auto-resend]   (the control: it must fail)

Prints the figures (clients, messages, kills, failed, lost, duplicated,
out of order, time from the last restart to the last message sent) and
`RESULT: ok` or `RESULT: FAILED`; exits 1 on failure.
"""
import argparse
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

import serve_process


def start_server(binary, db, port):
    return serve_process.start(binary, db, port, name="kill_restart_sdk")


def restart_server(binary, db, port, deadline):
    """The same file and port; the port may take a moment to be free again."""
    while True:
        try:
            return start_server(binary, db, port)[0]
        except SystemExit:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def text_of(content):
    """The text of a stored message's content (JSON), wherever it sits."""
    value = json.loads(content)
    while isinstance(value, dict):
        value = value.get("text", value.get("_0", next(iter(value.values()), None)))
    return value


class Client:
    """One REPL process: its script, and what it printed as it went."""

    def __init__(self, binary, url, index, messages, settle, auto_resend=True):
        self.index, self.messages = index, messages
        self.user = f"kr-{os.getpid()}-{index}"
        self.texts = [f"c{index}-{n:04d}" for n in range(1, messages + 1)]
        lines = [] if auto_resend else ["client new app --no-auto-resend"]
        lines += [f"user set {self.user}", f"start conversation --title {self.user}"]
        lines += [f"send c1 text {text}" for text in self.texts]
        lines += [f"wait m{messages} state sent --within {settle}s"]
        lines += [f"expect m{n}.state == sent" for n in range(1, messages + 1)]
        self.script = "\n".join(lines) + "\n"
        self.sent_commands = 0
        self.output = []
        self.finished_at = None
        self.proc = subprocess.Popen([binary, "--no-record", "--seed", str(index + 1), "--server", url],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()
        self.proc.stdin.write(self.script)
        self.proc.stdin.close()

    def read(self):
        for line in self.proc.stdout:
            self.output.append(line)
            if re.match(r"m\d+ = text message", line):
                self.sent_commands += 1
        self.finished_at = time.monotonic()

    @property
    def oks(self):
        return sum(1 for line in self.output if re.match(r"ok: m\d+\.state == sent", line))

    @property
    def resent(self):
        """Messages that went back to toBeSent after a send failed."""
        seen, back = set(), set()
        for line in self.output:
            match = re.search(r"\b(m\d+): (toBeSent|sending)\b", line)
            if match:
                handle, state = match.groups()
                if state == "toBeSent" and handle in seen:
                    back.add(handle)
                seen.add(handle)
        return len(back)

    @property
    def failed_lines(self):
        return [line for line in self.output if re.search(r"m\d+: failed", line)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--clients", type=int, default=3)
    parser.add_argument("--messages", type=int, default=100)
    parser.add_argument("--kills", type=int, default=3)
    parser.add_argument("--down", type=float, default=1.0, help="seconds the server stays down each time")
    parser.add_argument("--settle", type=int, default=60, help="seconds each client waits for its last message")
    parser.add_argument("--no-auto-resend", action="store_true",
                        help="the control: clients with autoResend off, whose failed sends stay failed (expect FAILED)")
    args = parser.parse_args()
    tmp = tempfile.mkdtemp()
    db = os.path.join(tmp, "outbox.sqlite")
    began = time.monotonic()
    server, port = start_server(args.binary, db, 0)
    url = f"http://127.0.0.1:{port}"
    clients = [Client(args.binary, url, i, args.messages, args.settle, not args.no_auto_resend) for i in range(args.clients)]

    # Kill while the clients send: kill k when every client has typed at
    # least k / (kills + 1) of its sends.
    kills_at = []
    last_restart = None
    for k in range(1, args.kills + 1):
        target = args.messages * k // (args.kills + 1)
        deadline = time.monotonic() + 120
        while min(c.sent_commands for c in clients) < target and time.monotonic() < deadline:
            if all(c.finished_at for c in clients):
                break
            time.sleep(0.02)
        server.send_signal(signal.SIGKILL)
        server.wait()
        kills_at.append(min(c.sent_commands for c in clients))
        time.sleep(args.down)
        server = restart_server(args.binary, db, port, time.monotonic() + 10)
        last_restart = time.monotonic()

    for c in clients:
        try:
            c.proc.wait(timeout=args.settle + 60)
        except subprocess.TimeoutExpired:
            c.proc.kill()
            c.proc.wait()
        c.reader.join(timeout=5)
    converged = max((c.finished_at or time.monotonic()) for c in clients) - last_restart
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=15)

    # What the server holds, from its file.
    con = sqlite3.connect(db)
    lost = duplicated = out_of_order = 0
    for c in clients:
        rows = con.execute(
            "SELECT m.id, m.content FROM message m JOIN conversation v ON v.id = m.conversationId "
            "WHERE v.ownerId = ? ORDER BY m.conversationId, m.seq", (c.user,)).fetchall()
        texts = [text_of(content) for _, content in rows]
        lost += len(set(c.texts) - set(texts))
        duplicated += len(texts) - len(set(texts))
        kept = [t for t in texts if t in set(c.texts)]
        deduplicated = list(dict.fromkeys(kept))
        expected = [t for t in c.texts if t in set(deduplicated)]
        out_of_order += sum(1 for a, b in zip(deduplicated, expected) if a != b)
    con.close()
    failed = sum(len(c.failed_lines) for c in clients)
    not_sent = sum(args.messages - c.oks for c in clients)
    print(f"kill_restart_sdk: {args.clients} SDK clients x {args.messages} messages, server SIGKILLed and restarted "
          f"{args.kills} times (down {args.down:.1f} s each; kills after {kills_at} sends per client)")
    resent = sum(c.resent for c in clients)
    print(f"kill_restart_sdk: {resent} messages went back to toBeSent after a failed send and went out again by themselves")
    print(f"kill_restart_sdk: failed {failed}, not sent at the end {not_sent}, lost {lost}, duplicated {duplicated}, "
          f"out of order {out_of_order}; every client done {converged:.1f} s after the last restart "
          f"({time.monotonic() - began:.1f} s in all)")
    ok = failed == 0 and not_sent == 0 and lost == 0 and duplicated == 0 and out_of_order == 0
    if not ok or os.environ.get("DEBUG"):
        for c in clients:
            print(f"--- client {c.index} ({c.user}): exit {c.proc.returncode}, {c.oks} ok")
            for line in (c.failed_lines + [l for l in c.output if l.startswith(("error", "FAILED", "expect"))])[:10]:
                print("   ", line.rstrip())
            print("    last lines:", "".join(c.output[-5:]))
    print("RESULT:", "ok" if ok else "FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
