#!/usr/bin/env python3
"""`chatbench serve` attacked as a hostile client and faulted as an operator
would (issue 26), over loopback only, every wait bounded. Run by
scripts/test.sh ("server attack").

    scripts/server_attack.py PATH/TO/chatbench

- leak: canonically equivalent ids (`caf\\u00e9` / `cafe\\u0301`, `jos\\u00e9` /
  `jose\\u0301`) on every route with an id and on the event stream: no user
  sees another's message; the two spellings are one id;
- secrets in the log: a full disk (a 2 MB tmpfs) makes sends fail with 500:
  the answer is generic (no SQL), /health says unavailable, and the log holds
  none of the credentials and bodies sent;
- foreign database: another program's SQLite file is refused, untouched;
- corrupt database: damaged pages are refused at start;
- two servers: a second server on a file in use is refused;
- refresh reuse: a rotated refresh token used again revokes its family;
- session token: logout revokes the session token it was opened with;
- demo app: allowUserIdOnly is named at start; --no-demo-app has none;
- second SIGTERM: ends a graceful shutdown at once;
- another app: a second app (added with `chatbench apps add` while the server runs) is
  answered the same for a user id and a conversation id the demo app has as
  for ids nobody has, on every route that takes them, and its "alice" and
  the demo app's are two users.

Prints one line per check with its figures; exits 1 naming each failure.
"""
import asyncio
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.parse

import httpx
import websockets

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish

API_KEY = "demo-key"
SECRET = "demo-secret-0123456789abcdef"
APP = {"X-Api-Key": API_KEY, "X-App-Secret": SECRET}
COMPOSED, DECOMPOSED = "caf\u00e9", "cafe\u0301"
JOSE_COMPOSED, JOSE_DECOMPOSED = "jos\u00e9", "jose\u0301"


class Server:
    """A `chatbench serve` process on a free port; its standard error to a file."""

    def __init__(self, binary, db, *options, expect_start=True, stderr_path=None):
        self.stderr_path = stderr_path or tempfile.mktemp(prefix="serve-", suffix=".log")
        self.stderr = open(self.stderr_path, "w")
        self.process = subprocess.Popen([binary, "serve", "--port", "0", "--db", db, *options],
                                        stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        self.port = None
        if expect_start:
            line = self.process.stdout.readline()
            if "http://127.0.0.1:" not in line:
                raise RuntimeError(f"serve did not start: {line!r} {self.log()}")
            self.port = int(line.split("http://127.0.0.1:")[1].split(" ")[0])

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def log(self):
        if not self.stderr.closed:
            self.stderr.flush()
        with open(self.stderr_path, errors="replace") as f:
            return f.read()

    def wait(self, timeout=10):
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            if self.wait(10) is None:
                self.process.kill()
                self.process.wait()
        self.stderr.close()


def quoted(id):
    return urllib.parse.quote(id, safe="")


def user_headers(token):
    return {"X-Api-Key": API_KEY, "Authorization": f"Bearer {token}", "X-Device-Id": "attack-1"}


def text(value):
    return {"text": {"_0": value}}


async def catch_up(url, token, seconds=1.0):
    """Every frame of an event stream from after=0 until it is quiet."""
    frames = []
    ws_url = url.replace("http://", "ws://") + "/v1/events?after=0"
    async with websockets.connect(ws_url, additional_headers=user_headers(token), max_size=None) as stream:
        while True:
            try:
                frames.append(json.loads(await asyncio.wait_for(stream.recv(), seconds)))
            except asyncio.TimeoutError:
                return frames


def message_texts(frames):
    """(author, text) of each messageCreated frame."""
    found = []
    for frame in frames:
        created = frame.get("kind", {}).get("messageCreated") if isinstance(frame, dict) else None
        if created:
            message = created.get("_0", created)
            found.append((json.dumps(message.get("author")), json.dumps(message.get("content"), ensure_ascii=False)))
    return found


async def leak(binary, work):
    server = Server(binary, os.path.join(work, "leak.sqlite"), "--log-level", "error")
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
            tokens = {}
            for name in ("bob", "alice", "jose"):
                tokens[name] = (await http.post("/v1/app/tokens", headers=APP, json={"userId": name})).json()["accessToken"]
            bob, alice = user_headers(tokens["bob"]), user_headers(tokens["alice"])
            sent_bob = await http.post(f"/v1/conversations/{quoted(DECOMPOSED)}/messages", headers=bob, json={
                "createConversation": {"title": "Bob's"}, "message": {"id": "m-bob", "content": text("bob's text")}})
            sent_alice = await http.post(f"/v1/conversations/{quoted(COMPOSED)}/messages", headers=alice, json={
                "createConversation": {"title": "Alice's"}, "message": {"id": "m-alice", "content": text("ALICE SECRET")}})
            check("leak: both sends are accepted", sent_bob.status_code == 200 and sent_alice.status_code == 200,
                  f"{sent_bob.status_code} {sent_alice.status_code}")
            bob_conversation = sent_bob.json()["conversation"]["id"]
            alice_conversation = sent_alice.json()["conversation"]["id"]
            check("leak: Bob's conversation is stored and answered in NFC", bob_conversation == COMPOSED,
                  repr(bob_conversation))
            check("leak: Alice's is another conversation", alice_conversation != bob_conversation, alice_conversation)

            foreign = 0
            answers = 0
            bob_frames = await catch_up(server.url, tokens["bob"])
            alice_frames = await catch_up(server.url, tokens["alice"])
            bob_texts, alice_texts = message_texts(bob_frames), message_texts(alice_frames)
            foreign += sum("ALICE" in t or "alice" in a for a, t in bob_texts)
            foreign += sum("bob" in t or "bob" in a for a, t in alice_texts)
            check("leak: each catch-up holds its user's own message only",
                  [t for _, t in bob_texts] == ['{"text": {"_0": "bob\'s text"}}']
                  and [t for _, t in alice_texts] == ['{"text": {"_0": "ALICE SECRET"}}'],
                  f"bob {bob_texts} alice {alice_texts}")

            # Every user route with a conversation id, in both spellings.
            for spelling in (COMPOSED, DECOMPOSED):
                for who, headers, own, other in (("bob", bob, "bob's text", "ALICE"), ("alice", alice, "ALICE", "bob's")):
                    for path in (f"/v1/conversations/{quoted(spelling)}", f"/v1/conversations/{quoted(spelling)}/messages",
                                 f"/v1/conversations/{quoted(spelling)}/messages/since/0"):
                        answer = await http.get(path, headers=headers)
                        answers += 1
                        body = answer.text
                        if other in body:
                            foreign += 1
                        if answer.status_code != 200 or ("messages" in path and own not in body):
                            check(f"leak: {who} GET {path} answers their own", False, f"{answer.status_code} {body[:200]}")
                    typing = await http.post(f"/v1/conversations/{quoted(spelling)}/typing", headers=headers,
                                             json={"isTyping": True})
                    answers += 1
                    check(f"leak: {who} typing in {spelling.encode('unicode_escape').decode()} is their own",
                          typing.status_code in (200, 204), f"{typing.status_code} {typing.text[:200]}")
                # The app's side: both spellings are Bob's conversation.
                said = await http.post(f"/v1/agent/conversations/{quoted(spelling)}/say", headers=APP,
                                       json={"text": f"agent in {spelling.encode('unicode_escape').decode()}"})
                listed = await http.get(f"/v1/app/conversations/{quoted(spelling)}/messages", headers=APP)
                answers += 2
                check(f"leak: the agent's routes take {spelling.encode('unicode_escape').decode()} as Bob's conversation",
                      said.status_code == 200 and said.json()["conversationId"] == bob_conversation
                      and "ALICE" not in listed.text and "bob's text" in listed.text,
                      f"{said.status_code} {said.text[:200]} {listed.text[:200]}")

            # Users: the two spellings are one user; revoking one spelling
            # revokes that user only.
            first = (await http.post("/v1/app/tokens", headers=APP, json={"userId": JOSE_COMPOSED})).json()["accessToken"]
            second = (await http.post("/v1/app/tokens", headers=APP, json={"userId": JOSE_DECOMPOSED})).json()["accessToken"]
            me = []
            for token in (first, second):
                answer = await http.post("/v1/identity", headers=user_headers(token), json={"getCurrentUser": {}})
                me.append(answer.json().get("user", {}).get("_0", answer.json()).get("id") if answer.status_code == 200 else None)
            check("leak: jos\\u00e9 and jose\\u0301 sign in as one user, in NFC", me == [JOSE_COMPOSED, JOSE_COMPOSED], repr(me))
            for route in ("conversations", "sessions", "devices", "pushes"):
                a = await http.get(f"/v1/app/users/{quoted(JOSE_COMPOSED)}/{route}", headers=APP)
                b = await http.get(f"/v1/app/users/{quoted(JOSE_DECOMPOSED)}/{route}", headers=APP)
                answers += 2
                check(f"leak: /v1/app/users/{{id}}/{route} answers alike for both spellings",
                      a.status_code == b.status_code == 200 and a.json() == b.json(), f"{a.status_code} {b.status_code}")
            ws_url = server.url.replace("http://", "ws://") + "/v1/events"
            async with websockets.connect(ws_url, additional_headers=user_headers(tokens["jose"])) as plain_stream:
                await asyncio.wait_for(plain_stream.recv(), 5)  # Ready
                revoked = await http.post(f"/v1/app/users/{quoted(JOSE_DECOMPOSED)}/tokens/revoke", headers=APP)
                check("leak: a revoke by the other spelling revokes jos\\u00e9",
                      revoked.status_code in (200, 204)
                      and (await http.get("/v1/conversations", headers=user_headers(first))).status_code == 401,
                      f"{revoked.status_code}")
                still = await http.get("/v1/conversations", headers=user_headers(tokens["jose"]))
                try:
                    await asyncio.wait_for(plain_stream.recv(), 1.0)
                    stream_open = False  # a frame here would be its close
                except asyncio.TimeoutError:
                    stream_open = True
                except websockets.ConnectionClosed:
                    stream_open = False
                check("leak: the separate user jose keeps his tokens and his event stream", still.status_code == 200 and stream_open,
                      f"{still.status_code} stream open: {stream_open}")
            check("leak: no foreign message anywhere", foreign == 0, f"{foreign} foreign")
            print(f"     leak: {len(bob_frames) + len(alice_frames)} catch-up frames and {answers} route answers read, "
                  f"{foreign} foreign messages")
    finally:
        server.stop()


def mount_tmpfs(path, size):
    os.makedirs(path, exist_ok=True)
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", path], capture_output=True)
    return result.returncode == 0


def secrets_in_log(binary, work):
    disk = os.path.join(work, "small-disk")
    if not mount_tmpfs(disk, "2m"):
        check("secrets: a full disk (needs a tmpfs mount, as root)", True)
        print("     secrets: skipped the full disk, tmpfs cannot be mounted here")
        return
    log_path = os.path.join(work, "full-disk.log")
    server = Server(binary, os.path.join(disk, "chat.sqlite"), "--log-level", "info", stderr_path=log_path)
    secrets = {SECRET, API_KEY}
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            tokens = http.post("/v1/app/tokens", headers=APP, json={"userId": "filler"}).json()
            secrets |= {tokens["accessToken"], tokens["refreshToken"]}
            headers = user_headers(tokens["accessToken"])
            failed = None
            sent = 0
            filler = "x" * 4000
            for n in range(2000):
                marker = f"BODY-SECRET-{n:05d}"
                answer = http.post(f"/v1/conversations/full/messages", headers=headers, json={
                    "createConversation": {"title": "full"},
                    "message": {"id": f"m{n}", "content": text(marker + filler)}})
                if answer.status_code == 500:
                    failed = answer
                    secrets.add(marker)
                    break
                sent += 1
            check("secrets: the full disk makes a send fail with 500", failed is not None, f"{sent} sent, no 500")
            if failed is None:
                return
            body = failed.json()
            leaked = [word for word in ("SELECT", "INSERT", "UPDATE", "SQLite", "sqlite", "disk", "full") if word in failed.text]
            check("secrets: the 500 says internalError and nothing of SQLite or the SQL",
                  body.get("code") == "internalError" and not leaked, f"{failed.text[:300]}")
            health = http.get("/health")
            check("secrets: /health answers 503 unavailable, naming the failed write",
                  health.status_code == 503 and health.json().get("status") == "unavailable", f"{health.status_code} {health.text[:200]}")
            # A few more requests that fail, with a JWT and an app secret on the way.
            for _ in range(3):
                http.post("/v1/conversations/full/messages", headers=headers,
                          json={"message": {"id": "again", "content": text("BODY-SECRET-again")}})
            secrets.add("BODY-SECRET-again")
    finally:
        server.stop()
        subprocess.run(["umount", disk], capture_output=True)
    log = open(log_path, errors="replace").read()
    found = sorted(secret[:12] + "…" for secret in secrets if secret in log)
    check("secrets: the log names the failures", "request failed" in log, log[-300:])
    check("secrets: the log holds none of the credentials and bodies sent", not found, f"found {found}")
    print(f"     secrets: {sent} sends before the disk filled, {len(secrets)} secrets looked for in {len(log)} bytes of log, "
          f"{len(found)} found")


def file_state(path):
    names = sorted(name for name in os.listdir(os.path.dirname(path)) if name.startswith(os.path.basename(path)))
    digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
    return names, digest


def foreign_database(binary, work):
    path = os.path.join(work, "notes.sqlite")
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    db.execute("INSERT INTO notes (text) VALUES ('somebody else''s data')")
    db.commit()
    db.close()
    before = file_state(path)
    server = Server(binary, path, expect_start=False)
    status = server.wait(15)
    log = server.log()
    server.stop()
    after = file_state(path)
    check("foreign database: serve exits 1 naming it another program's", status == 1 and "another program's" in log,
          f"exit {status}: {log[-300:]}")
    check("foreign database: the file is untouched (bytes, no -wal, no migrations table)", before == after,
          f"{before} → {after}")
    print(f"     foreign database: exit {status}, files {after[0]}")


def corrupt_database(binary, work):
    path = os.path.join(work, "corrupt.sqlite")
    server = Server(binary, path, "--log-level", "error")
    with httpx.Client(base_url=server.url, timeout=10) as http:
        token = http.post("/v1/app/tokens", headers=APP, json={"userId": "victim"}).json()["accessToken"]
        for n in range(200):
            http.post("/v1/conversations/c/messages", headers=user_headers(token), json={
                "createConversation": {}, "message": {"id": f"m{n}", "content": text("x" * 500)}})
    server.stop()
    size = os.path.getsize(path)
    with open(path, "r+b") as f:
        page = 4096
        for offset in range(2 * page, size - page, 3 * page):
            f.seek(offset + 100)
            f.write(os.urandom(page - 200))
    server = Server(binary, path, expect_start=False)
    status = server.wait(15)
    log = server.log()
    server.stop()
    check("corrupt database: serve refuses it at start, naming the damage", status == 1 and "damaged" in log,
          f"exit {status}: {log[-300:]}")
    print(f"     corrupt database: {size} bytes, pages overwritten, exit {status}")


def two_servers(binary, work):
    path = os.path.join(work, "shared.sqlite")
    first = Server(binary, path, "--log-level", "error")
    try:
        second = Server(binary, path, expect_start=False)
        status = second.wait(15)
        log = second.log()
        second.stop()
        check("two servers: the second is refused, naming the first's pid",
              status == 1 and f"pid {first.process.pid}" in log, f"exit {status}: {log[-300:]}")
        alive = httpx.get(first.url + "/health", timeout=5)
        check("two servers: the first goes on answering", alive.status_code == 200, str(alive.status_code))
    finally:
        first.stop()
    again = Server(binary, path, "--log-level", "error")
    check("two servers: once the first stopped, the file opens again", again.port is not None)
    again.stop()
    print(f"     two servers: second exit {status}")


def credentials(binary, work):
    server = Server(binary, os.path.join(work, "credentials.sqlite"), "--log-level", "error")
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            pair = http.post("/v1/app/tokens", headers=APP, json={"userId": "reuse"}).json()
            refresh = {"X-Api-Key": API_KEY, "X-Device-Id": "attack-1"}
            rotated = http.post("/v1/auth/refresh", headers=refresh, json={"refreshToken": pair["refreshToken"]})
            check("refresh reuse: a first refresh rotates the pair", rotated.status_code == 200, rotated.text[:200])
            minted = rotated.json()
            replayed = http.post("/v1/auth/refresh", headers=refresh, json={"refreshToken": pair["refreshToken"]})
            family = http.get("/v1/conversations", headers=user_headers(minted["accessToken"]))
            again = http.post("/v1/auth/refresh", headers=refresh, json={"refreshToken": minted["refreshToken"]})
            check("refresh reuse: the replayed token is refused and its whole family revoked",
                  replayed.status_code == 401 and family.status_code == 401 and again.status_code == 401,
                  f"replay {replayed.status_code}, minted access {family.status_code}, minted refresh {again.status_code}")

            session = http.post("/v1/app/session-tokens", headers=APP, json={"userId": "leaver"}).json()["token"]
            connect = {"connectSessionToken": {"userId": "leaver", "sessionToken": session}}
            signed_in = http.post("/v1/identity", headers={"X-Api-Key": API_KEY, "X-Device-Id": "attack-1"}, json=connect)
            access = signed_in.json()["session"]["tokens"]["accessToken"] if signed_in.status_code == 200 else ""
            out = http.post("/v1/identity", headers=user_headers(access), json={"logout": {}})
            after = http.post("/v1/identity", headers={"X-Api-Key": API_KEY, "X-Device-Id": "attack-1"}, json=connect)
            check("session token: logout revokes the session token it was opened with",
                  signed_in.status_code == 200 and out.status_code in (200, 204) and after.status_code == 401,
                  f"sign-in {signed_in.status_code} logout {out.status_code} again {after.status_code} {after.text[:200]}")
    finally:
        server.stop()
    log = server.log()
    check("demo app: serve warns that the demo app allows user ids alone", "allowUserIdOnly" in log and "warning" in log,
          log[:300])
    bare = Server(binary, ":memory:", "--no-demo-app", "--log-level", "error")
    try:
        refused = httpx.post(bare.url + "/v1/app/tokens", headers=APP, json={"userId": "x"}, timeout=5)
        check("demo app: --no-demo-app starts without the well-known key", refused.status_code == 401, str(refused.status_code))
    finally:
        bare.stop()
    check("demo app: and says nothing of allowUserIdOnly then", "allowUserIdOnly" not in bare.log(), bare.log()[:300])


def second_signal(binary, work):
    server = Server(binary, ":memory:", "--log-level", "error", "--shutdown-grace", "30")
    # A request still being sent keeps the graceful shutdown waiting.
    slow = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    slow.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")  # the request is not finished
    time.sleep(0.3)
    server.process.send_signal(signal.SIGTERM)
    time.sleep(0.5)
    still_running = server.process.poll() is None
    started = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    status = server.wait(5)
    took = time.monotonic() - started
    slow.close()
    server.stop()
    check("second SIGTERM: the first waits for the request in flight, the second ends the process at once",
          still_running and status is not None and took < 2, f"running after the first: {still_running}, exit {status} in {took:.2f} s")
    print(f"     second SIGTERM: exit {status} {took:.2f} s after it")


OTHER_KEY, OTHER_SECRET = "other-key", "other-secret-0123456789abcdef-0123456789"


def normalised(response, ids):
    """A response's status and body, with the probed ids, tokens and times
    replaced by placeholders: what must not tell the ids apart."""
    body = response.text
    for placeholder, value in ids.items():
        body = body.replace(json.dumps(value)[1:-1], placeholder)
    body = re.sub(r'\b(at|rt|ak|st|msg)-[A-Za-z0-9_]+', r'\1-X', body)
    body = re.sub(r'"milliseconds"\s*:\s*-?[0-9]+', '"milliseconds":T', body)
    return response.status_code, body


def probe_other_app(http, user, conversation):
    """What the second app is answered for one user id and one conversation id."""
    ids = {"USER": user, "CONVERSATION": conversation}
    app = {"X-Api-Key": OTHER_KEY, "X-App-Secret": OTHER_SECRET}
    u, c = quoted(user), quoted(conversation)
    answers = [
        http.get(f"/v1/app/users/{u}/conversations", headers=app),
        http.get(f"/v1/app/users/{u}/sessions", headers=app),
        http.get(f"/v1/app/users/{u}/devices", headers=app),
        http.get(f"/v1/app/users/{u}/pushes", headers=app),
        http.post(f"/v1/app/users/{u}/tokens/expire", headers=app),
        http.post(f"/v1/app/users/{u}/tokens/revoke", headers=app),
        http.get(f"/v1/app/conversations/{c}/messages", headers=app),
        http.post(f"/v1/agent/conversations/{c}/say", headers=app, json={"text": "hi"}),
        http.post("/v1/identity", headers={"X-Api-Key": OTHER_KEY, "X-Device-Id": "attack-1"},
                  json={"connectAccessToken": {"userId": user, "accessToken": "ak-0000"}}),
        http.post("/v1/identity", headers={"X-Api-Key": OTHER_KEY, "X-Device-Id": "attack-1"},
                  json={"connectUserId": {"userId": user}}),
        http.post("/v1/app/access-tokens", headers=app, json={"userId": user}),
        http.post("/v1/app/session-tokens", headers=app, json={"userId": user}),
    ]
    pair = http.post("/v1/app/tokens", headers=app, json={"userId": user})
    answers.append(pair)
    token = pair.json().get("accessToken", "none") if pair.status_code == 200 else "none"
    headers = {"X-Api-Key": OTHER_KEY, "Authorization": f"Bearer {token}", "X-Device-Id": "attack-1"}
    send = {"message": {"id": "m1", "content": text("mine")}}
    answers += [
        http.get(f"/v1/conversations/{c}", headers=headers),
        http.get(f"/v1/conversations/{c}/messages", headers=headers),
        http.post(f"/v1/conversations/{c}/typing", headers=headers, json={"isTyping": True}),
        http.post(f"/v1/conversations/{c}/messages", headers=headers, json=send),
        http.post(f"/v1/conversations/{c}/messages", headers=headers, json={"createConversation": {}, **send}),
        http.get(f"/v1/conversations/{c}/messages", headers=headers),
    ]
    return [normalised(answer, ids) for answer in answers]


def other_app(binary, work):
    path = os.path.join(work, "apps.sqlite")
    server = Server(binary, path, "--log-level", "error")
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            pair = http.post("/v1/app/tokens", headers=APP, json={"userId": "alice"}).json()
            http.post("/v1/conversations/c-held/messages", headers=user_headers(pair["accessToken"]),
                      json={"createConversation": {}, "message": {"id": "m1", "content": text("DEMO SECRET")}})
            # The operator adds the second app as operators do, while the
            # server runs, with the demo app's setting for sign-in by id.
            added = subprocess.run([binary, "apps", "add", OTHER_KEY, "--db", path, "--secret-stdin", "--allow-user-id-only"],
                                   input=OTHER_SECRET + "\n", capture_output=True, text=True, timeout=60)
            check("another app: `chatbench apps add` adds it beside a running server, its secret not echoed",
                  added.returncode == 0 and OTHER_SECRET not in added.stdout + added.stderr,
                  f"exit {added.returncode}: {added.stderr.strip()}")
            timing = time_other_app(http)
            held = probe_other_app(http, "alice", "c-held")
            unknown = probe_other_app(http, "nobody", "c-free")
            demo = http.get("/v1/conversations/c-held/messages", headers=user_headers(pair["accessToken"]))
            demo_users = http.get("/v1/app/users", headers=APP).json()
            other_users = http.get("/v1/app/users", headers={"X-Api-Key": OTHER_KEY, "X-App-Secret": OTHER_SECRET}).json()
    finally:
        server.stop()
    differing = [index for index, (a, b) in enumerate(zip(held, unknown)) if a != b]
    check("another app: ids the demo app has are answered as ids nobody has, on every route",
          len(held) == len(unknown) and not differing,
          "; ".join(f"#{i}: {held[i]} vs {unknown[i]}" for i in differing[:3]))
    check("another app: it made its own alice and c-held; the demo app's are untouched",
          '"text":{"_0":"mine"}' in held[-2][1].replace(" ", "") and "DEMO SECRET" in demo.text and "mine" not in demo.text
          and [user["id"] for user in demo_users] == ["alice"] and [user["id"] for user in other_users] == ["alice", "nobody"],
          f"{held[-2]} / {demo.text[:200]} / {demo_users} / {other_users}")
    print(f"     another app: {len(held)} answers for a held id and an unknown one, {len(differing)} differ")
    print(f"     another app, time to answer (median of {timing['rounds']} interleaved rounds; a figure, not a check: "
          f"PerAppIdTests checks that both run the same SQL statements): "
          + "; ".join(f"{route} held {held_ms:.3f} ms, unknown {unknown_ms:.3f} ms, paired difference {difference:+.3f} ms"
                      for route, held_ms, unknown_ms, difference in timing["routes"]))


def time_other_app(http, rounds=200):
    """Times of the second app's read-only requests for an id the demo app
    holds and for one nobody holds, in pairs (one of each per round, the
    order alternating): the median of each, and the median of the paired
    differences, which the machine's load drifting during the run moves
    least."""
    app = {"X-Api-Key": OTHER_KEY, "X-App-Secret": OTHER_SECRET}
    routes = [("GET /v1/app/users/{u}/sessions", lambda u, c: http.get(f"/v1/app/users/{u}/sessions", headers=app)),
              ("GET /v1/app/conversations/{c}/messages", lambda u, c: http.get(f"/v1/app/conversations/{c}/messages", headers=app))]
    median = lambda values: sorted(values)[len(values) // 2] * 1000
    result = []
    for name, request in routes:
        held, unknown = [], []
        for index in range(rounds):
            def timed(user, conversation):
                started = time.perf_counter()
                request(user, conversation)
                return time.perf_counter() - started
            if index % 2 == 0:
                held.append(timed("alice", "c-held"))
                unknown.append(timed("nobody-t", "c-nobody"))
            else:
                unknown.append(timed("nobody-t", "c-nobody"))
                held.append(timed("alice", "c-held"))
        result.append((name, median(held), median(unknown), median([a - b for a, b in zip(held, unknown)])))
    return {"rounds": rounds, "routes": result}


def main():
    binary = os.path.abspath(sys.argv[1])
    work = tempfile.mkdtemp(prefix="server-attack-")
    try:
        asyncio.run(leak(binary, work))
        secrets_in_log(binary, work)
        foreign_database(binary, work)
        corrupt_database(binary, work)
        two_servers(binary, work)
        credentials(binary, work)
        second_signal(binary, work)
        other_app(binary, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    finish("server attack")


if __name__ == "__main__":
    main()
