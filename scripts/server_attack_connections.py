#!/usr/bin/env python3
"""Hostile connections against `chatbench serve` (issue 26 item 2), run by scripts/test.sh.

    scripts/server_attack_connections.py PATH/TO/chatbench

Loopback only; every loop is bounded in count and in time (about 80 s in all).

1. Slowloris: the server runs under `ulimit -n 1024`; 1,100 connections
   each send one byte of a request head per second (closed ones are opened
   again, 4,000 in all at most). Meanwhile a normal client asks
   `GET /health` 5 times: it must get 5 answers, the server must stay
   alive and leave at least 64 of its descriptors free. A client that
   connects and sends its request only 4 s later (what a busy server sees
   of a request it has not read yet) must be answered too: the slow
   readers are closed to make room before a connection that sent nothing.
2. A WebSocket client that upgrades and then reads nothing while its user
   gets about 24 MB of events: the server's memory stays flat and the
   stream is closed with a code and a reason saying why (slow consumer).
3. Eight streams catch up from after=0 on a user with 3,000 messages: the
   server's memory stays flat while they have not read, each then gets
   every event in order; a ninth stream closes the oldest with the reason.

Prints one line per check (and the figures: connections held, answers,
RSS before and after); exits 1 naming each check that failed.
"""
import base64
import http.client
import json
import os
import resource
import select
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish  # noqa: E402

API = {"X-Api-Key": "demo-key"}
APP = {"X-Api-Key": "demo-key", "X-App-Secret": "demo-secret-0123456789abcdef"}
SLOW_CONNECTIONS = 1100
SERVER_FILE_LIMIT = 1024


def start(binary, db, *options):
    """Starts `serve` under `ulimit -n 1024`; returns (process, port)."""
    command = ["bash", "-c", f'ulimit -n {SERVER_FILE_LIMIT} && exec "$@"', "bash",
               binary, "serve", "--port", "0", "--db", db, "--log-level", "error", *options]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    ready, _, _ = select.select([process.stdout], [], [], 60)
    line = process.stdout.readline() if ready else ""
    if "http://127.0.0.1:" not in line:
        process.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return process, int(line.split("http://127.0.0.1:")[1].split(" ")[0])


def stop(process):
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


def rss_mb(process):
    try:
        with open(f"/proc/{process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def sockets_held(process):
    """Sockets the server holds open, the listening one included."""
    count = 0
    try:
        for name in os.listdir(f"/proc/{process.pid}/fd"):
            try:
                if os.readlink(f"/proc/{process.pid}/fd/{name}").startswith("socket:"):
                    count += 1
            except OSError:
                pass
    except OSError:
        return -1
    return count


def call(port, method, path, headers, body=None, timeout=10):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = None if body is None else json.dumps(body)
        connection.request(method, path, body=data, headers={**headers, "Content-Type": "application/json"})
        answer = connection.getresponse()
        raw = answer.read()
        return answer.status, json.loads(raw) if raw else None
    finally:
        connection.close()


def health(port, timeout=5.0, why=None):
    """One normal client's request on a new connection; True when answered 200 in time.
    `why`, a list, gets what happened to a request that was not (its error
    and how long it took), so that a failure says whether the server was
    slow or closed the connection."""
    began = time.monotonic()
    try:
        status, _ = call(port, "GET", "/health", {}, timeout=timeout)
        if status != 200 and why is not None:
            why.append(f"status {status} after {time.monotonic() - began:.1f} s")
        return status == 200
    except (OSError, http.client.HTTPException, ValueError) as error:
        if why is not None:
            why.append(f"{type(error).__name__}: {error} after {time.monotonic() - began:.1f} s")
        return False


def late_request(port, delay, why, timeout=10.0):
    """A client that connects, then sends its request `delay` seconds later:
    to the server, the normal client whose request a busy server has not
    read yet (it sees a connection that sent nothing). True when answered 200."""
    began = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
            time.sleep(delay)
            connection.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            answer = b""
            while b"\r\n" not in answer:
                chunk = connection.recv(4096)
                if not chunk:
                    break
                answer += chunk
            if answer.startswith(b"HTTP/1.1 200"):
                return True
            why.append(f"late request: {answer[:40]!r} after {time.monotonic() - began:.1f} s")
    except OSError as error:
        why.append(f"late request: {type(error).__name__}: {error} after {time.monotonic() - began:.1f} s")
    return False


# MARK: 1. Slowloris

def open_slow(port):
    connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    connection.setblocking(False)
    connection.connect_ex(("127.0.0.1", port))
    return connection


def slowloris(binary, scratch):
    process, port = start(binary, os.path.join(scratch, "slowloris.sqlite"))
    try:
        time.sleep(0.5)
        rss_before = rss_mb(process)
        head = b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 4000
        slow = [(open_slow(port), 0) for _ in range(SLOW_CONNECTIONS)]
        opened, closed_by_server, peak = SLOW_CONNECTIONS, 0, 0
        answers, attempts, threads, unanswered = [], 0, [], []
        began = time.monotonic()
        # 20 rounds of one byte per connection per second; the normal client
        # asks at 3, 6, 9, 12 and 15 s (before and after the request timeout).
        # At 4 s a client connects and sends its request 4 s later: while
        # the attack's new connections keep coming from its address, its
        # quiet connection must not be the one closed to make room.
        late = []
        for second in range(20):
            if process.poll() is not None:
                break
            round_start = time.monotonic()
            if second in (3, 6, 9, 12, 15):
                attempts += 1
                thread = threading.Thread(target=lambda: answers.append(health(port, why=unanswered)))
                thread.start()
                threads.append(thread)
            if second == 4:
                thread = threading.Thread(target=lambda: late.append(late_request(port, 4.0, unanswered)))
                thread.start()
                threads.append(thread)
            kept = []
            for connection, sent in slow:
                try:
                    connection.send(head[sent:sent + 1])
                    kept.append((connection, sent + 1))
                except BlockingIOError:
                    kept.append((connection, sent))
                except OSError:
                    connection.close()
                    closed_by_server += 1
                    if opened < 4000:
                        kept.append((open_slow(port), 0))
                        opened += 1
            slow = kept
            peak = max(peak, sockets_held(process))
            time.sleep(max(0.0, 1.0 - (time.monotonic() - round_start)))
        for thread in threads:
            thread.join(timeout=10)
        alive = process.poll() is None
        answered_after = health(port) if alive else False
        rss_after = rss_mb(process)
        held = sockets_held(process)
        for connection, _ in slow:
            connection.close()
        elapsed = time.monotonic() - began
        print(f"slowloris: {SLOW_CONNECTIONS} connections, one byte a second for {elapsed:.0f} s ({opened} opened, "
              f"{closed_by_server} closed by the server); server held at most {peak} sockets, {held} at the end; "
              f"normal client answered {sum(answers)}/{attempts}, its request sent 4 s after connecting "
              f"{'answered' if late == [True] else 'not answered'}; RSS {rss_before:.1f} -> {rss_after:.1f} MB")
        check(f"the server survives {SLOW_CONNECTIONS} slow connections under ulimit -n {SERVER_FILE_LIMIT}",
              alive, f"exit status {process.returncode}")
        check(f"a normal client gets answers during the attack ({sum(answers)}/{attempts})",
              attempts == 5 and sum(answers) == 5 and answered_after,
              "; ".join(unanswered) + ("" if answered_after else "; not answered after the attack"))
        check("a client whose request comes 4 s after it connected is answered during the attack "
              "(its quiet connection outlasts the slow readers from its address)",
              late == [True], "; ".join(unanswered))
        check(f"the server leaves descriptors free ({peak} sockets, at most {SERVER_FILE_LIMIT - 64} of {SERVER_FILE_LIMIT})",
              0 < peak <= SERVER_FILE_LIMIT - 64)
        check(f"slow connections are closed by the server ({closed_by_server})", closed_by_server >= SLOW_CONNECTIONS)
    finally:
        stop(process)


# MARK: WebSocket over a raw socket

def upgrade(port, token, query="", receive_buffer=None):
    connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer:
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    connection.settimeout(10)
    connection.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    connection.sendall((f"GET /v1/events{query} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nX-Api-Key: demo-key\r\n"
                        f"Authorization: Bearer {token}\r\n\r\n").encode())
    received = b""
    while b"\r\n\r\n" not in received and len(received) < 65536:
        chunk = connection.recv(1)  # the answer's head only: what follows is frames
        if not chunk:
            break
        received += chunk
    if not received.startswith(b"HTTP/1.1 101"):
        raise SystemExit(f"the upgrade was refused: {received[:200]!r}")
    return connection


class FrameReader:
    """Reads the server's (unmasked) frames from a raw socket."""

    def __init__(self, connection):
        self.connection = connection
        self.buffer = b""

    def _fill(self, count, deadline):
        while len(self.buffer) < count:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            self.connection.settimeout(remaining)
            chunk = self.connection.recv(1 << 20)
            if not chunk:
                raise EOFError
            self.buffer += chunk

    def _take(self, count, deadline):
        self._fill(count, deadline)
        taken, self.buffer = self.buffer[:count], self.buffer[count:]
        return taken

    def next(self, deadline):
        """(opcode, payload); raises EOFError at the end, TimeoutError past the deadline."""
        first, second = self._take(2, deadline)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack(">H", self._take(2, deadline))[0]
        elif length == 127:
            length = struct.unpack(">Q", self._take(8, deadline))[0]
        return first & 0x0F, self._take(length, deadline)


def read_until_close(connection, seconds):
    """Reads frames until a close frame: (text frames, close code, reason) or (n, None, why not)."""
    reader, texts, deadline = FrameReader(connection), 0, time.monotonic() + seconds
    try:
        while True:
            opcode, payload = reader.next(deadline)
            if opcode == 0x8:
                code = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else None
                return texts, code, payload[2:].decode(errors="replace")
            if opcode == 0x1:
                texts += 1
    except TimeoutError:
        return texts, None, "no close frame in time"
    except (EOFError, ConnectionResetError):
        return texts, None, "closed without a close frame"


def tokens(port, user):
    status, answer = call(port, "POST", "/v1/app/tokens", APP, {"userId": user})
    if status != 200:
        raise SystemExit(f"tokens for {user}: {status} {answer}")
    return answer["accessToken"]


def conversation(port, token, conversation_id):
    status, answer = call(port, "POST", f"/v1/conversations/{conversation_id}/messages", {**API, "Authorization": f"Bearer {token}"},
                          {"createConversation": {}, "message": {"id": f"{conversation_id}-m0", "content": {"text": {"_0": "hi"}}}})
    if status != 200:
        raise SystemExit(f"creating {conversation_id}: {status} {answer}")


def say_many(port, conversation_id, count, text, seconds):
    """The agent says `text` up to `count` times within `seconds`, on one keep-alive connection; returns how many."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    body = json.dumps({"text": text})
    said, deadline = 0, time.monotonic() + seconds
    try:
        while said < count and time.monotonic() < deadline:
            connection.request("POST", f"/v1/agent/conversations/{conversation_id}/say", body=body,
                               headers={**APP, "Content-Type": "application/json"})
            answer = connection.getresponse()
            answer.read()
            if answer.status != 200:
                raise SystemExit(f"say: {answer.status}")
            said += 1
    finally:
        connection.close()
    return said


# MARK: 2. A stream that reads nothing

def silent_stream(port, process):
    token = tokens(port, "attack-silent")
    conversation(port, token, "attack-silent-c")
    text = "\U0001F600" * 10000  # 10,000 characters, 40 KB of UTF-8
    # The same work once with no stream open first, so that what the server
    # keeps whatever the streams (SQLite's page cache, the allocator's
    # arenas) is in the figure before.
    say_many(port, "attack-silent-c", 200, text, 10)
    connection = upgrade(port, token, receive_buffer=4096)
    time.sleep(0.5)
    rss_before = rss_mb(process)
    said = say_many(port, "attack-silent-c", 600, text, 25)
    time.sleep(1)
    rss_after = rss_mb(process)
    frames, code, reason = read_until_close(connection, 20)
    connection.close()
    print(f"silent stream: {said} messages of 40 KB ({said * 2} events) to a client that reads nothing; "
          f"RSS {rss_before:.1f} -> {rss_after:.1f} MB; the client then read {frames} frames and close {code} {reason!r}")
    check(f"a client that reads nothing does not grow the server ({rss_after - rss_before:+.1f} MB)", rss_after - rss_before < 10)
    check(f"... and its stream is closed with the reason ({code} {reason!r})",
          code in (1008, 1013) and "slow consumer" in reason)


# MARK: 3. Catch-up from after=0

def catch_up(port, process):
    token = tokens(port, "attack-history")
    conversation(port, token, "attack-history-c")
    said = say_many(port, "attack-history-c", 3000, "y" * 1000, 40)
    streams_count = 8
    time.sleep(0.5)
    rss_before = rss_mb(process)
    streams = [upgrade(port, token, "?after=0") for _ in range(streams_count)]
    time.sleep(3)  # they read nothing yet
    rss_waiting = rss_mb(process)
    counts, deadline = [], time.monotonic() + 60
    for connection in streams:
        # Every event is stored before the streams open: a stream has caught
        # up when nothing more comes for two seconds.
        reader, seen, last, in_order = FrameReader(connection), 0, 0, True
        try:
            while True:
                opcode, payload = reader.next(min(deadline, time.monotonic() + 2))
                if opcode != 0x1:
                    continue
                frame = json.loads(payload)
                if "userSeq" in frame:
                    in_order = in_order and frame["userSeq"] == last + 1
                    last = frame["userSeq"]
                    seen += 1
        except (TimeoutError, EOFError, ConnectionResetError):
            pass
        counts.append((seen, last, in_order))
    rss_after = rss_mb(process)
    newest = max(last for _, last, _ in counts)
    print(f"catch-up: {streams_count} streams from after=0 on a user with {said + 1} messages ({newest} events); "
          f"RSS {rss_before:.1f} -> {rss_waiting:.1f} MB while they had read nothing -> {rss_after:.1f} MB after they read; "
          f"events each: {sorted(set(seen for seen, _, _ in counts))}")
    check(f"catch-up streams that read nothing do not grow the server ({rss_waiting - rss_before:+.1f} MB for {streams_count})",
          rss_waiting - rss_before < 15)
    check(f"each catch-up stream gets every event, in order ({newest})",
          newest >= 2 * said and all(seen == newest and last == newest and ordered for seen, last, ordered in counts), f"{counts}")
    # One more stream than the cap: the oldest is closed with the reason.
    ninth = upgrade(port, token)
    _, code, reason = read_until_close(streams[0], 10)
    print(f"a ninth stream of the user: the oldest closed with {code} {reason!r}")
    check(f"a user's ninth stream closes the oldest with the reason ({code})", code == 1008 and "too many event streams" in reason)
    for connection in streams + [ninth]:
        connection.close()


def main():
    binary = sys.argv[1]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 8192 if hard == resource.RLIM_INFINITY else min(hard, 8192)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    with tempfile.TemporaryDirectory() as scratch:
        slowloris(binary, scratch)
        process, port = start(binary, os.path.join(scratch, "streams.sqlite"))
        try:
            silent_stream(port, process)
            catch_up(port, process)
            check("the server is still alive", process.poll() is None and health(port))
        finally:
            stop(process)
    finish("server attack: connections")


if __name__ == "__main__":
    main()
