#!/usr/bin/env python3
"""Kill `chatbench serve` (SIGKILL) in the middle of traffic, restart it on the
same database and port, and check that nothing acknowledged was lost and that
event streams catch up with no duplicate and no gap. Loopback only, bounded.

Usage: kill_restart.py CHATBENCH_BINARY [--clients N] [--seconds S]
"""
import argparse
import asyncio
import json
import os
import signal
import sys
import tempfile
import time

import aiohttp

import serve_process

API_KEY, SECRET = "demo-key", "demo-secret-0123456789abcdef"


def start(binary, db, port):
    return serve_process.start(binary, db, port, name="kill_restart")


class User:
    def __init__(self, i):
        self.id, self.conversation = f"user-{i}", f"conv-{i}"
        self.token = None
        self.acked, self.seqs, self.events = set(), [], set()

    def headers(self):
        return {"X-Api-Key": API_KEY, "Authorization": f"Bearer {self.token}"}


async def listen(session, base, user, stop):
    """Holds the user's event stream, reconnecting with ?after= the last userSeq seen."""
    url = base.replace("http", "ws", 1) + "/v1/events"
    while not stop.is_set():
        after = f"?after={user.seqs[-1] if user.seqs else 0}"
        try:
            async with session.ws_connect(url + after, headers=user.headers(), heartbeat=None) as ws:
                async for msg in ws:
                    if msg.type != aiohttp.WSMsgType.TEXT:
                        break
                    frame = json.loads(msg.data)
                    if "userSeq" in frame:
                        user.seqs.append(frame["userSeq"])
                        kind = frame["kind"]
                        if "messageCreated" in kind:
                            user.events.add(kind["messageCreated"]["_0"]["id"])
        except (aiohttp.ClientError, OSError, asyncio.TimeoutError):
            pass
        await asyncio.sleep(0.2)


async def sender(session, base, user, stop, counter):
    n = 0
    while not stop.is_set():
        mid = f"{user.conversation}-{n}"
        n += 1
        body = {"message": {"id": mid, "content": {"text": {"_0": f"m{n}"}}}}
        try:
            async with session.post(f"{base}/v1/conversations/{user.conversation}/messages", json=body,
                                    headers=user.headers()) as r:
                if r.status == 200:
                    user.acked.add(mid)
                    counter[0] += 1
        except (aiohttp.ClientError, OSError, asyncio.TimeoutError):
            await asyncio.sleep(0.05)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=3)
    args = parser.parse_args()
    tmp = tempfile.mkdtemp()
    db = os.path.join(tmp, "kill.sqlite")
    proc, port = start(args.binary, db, 0)
    base = f"http://127.0.0.1:{port}"
    users = [User(i) for i in range(args.clients)]
    timeout = aiohttp.ClientTimeout(total=5)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        for u in users:
            async with session.post(f"{base}/v1/app/tokens", json={"userId": u.id},
                                    headers={"X-Api-Key": API_KEY, "X-App-Secret": SECRET}) as r:
                u.token = (await r.json())["accessToken"]
            body = {"createConversation": {}, "message": {"id": f"{u.conversation}-first", "content": {"text": {"_0": "hi"}}}}
            async with session.post(f"{base}/v1/conversations/{u.conversation}/messages", json=body, headers=u.headers()) as r:
                r.raise_for_status()
                u.acked.add(f"{u.conversation}-first")
        stop_listen, stop_send = asyncio.Event(), asyncio.Event()
        counter = [0]
        listeners = [asyncio.create_task(listen(session, base, u, stop_listen)) for u in users]
        senders = [asyncio.create_task(sender(session, base, u, stop_send, counter)) for u in users]
        await asyncio.sleep(args.seconds / 2)
        before_kill = counter[0]
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        killed_at = time.monotonic()
        await asyncio.sleep(0.3)
        proc, _ = start(args.binary, db, port)
        restarted_in = time.monotonic() - killed_at
        await asyncio.sleep(args.seconds / 2)
        stop_send.set()
        await asyncio.gather(*senders)
        # Let the streams catch up (bounded).
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and not all(u.acked <= u.events | {f"{u.conversation}-first"} for u in users):
            await asyncio.sleep(0.1)
        alive = sum(1 for t in listeners if not t.done())
        if os.environ.get("DEBUG"):
            for u in users:
                missing = sorted(u.acked - u.events - {f"{u.conversation}-first"})
                if missing:
                    print(u.id, "missing", missing[:5], "seqs", len(u.seqs), u.seqs[-3:], "acked", len(u.acked), "alive", alive)
            for t in listeners:
                if t.done() and t.exception():
                    print("listener died:", repr(t.exception()))
                    break
        stop_listen.set()
        for task in listeners:
            task.cancel()
        await asyncio.gather(*listeners, return_exceptions=True)
        # What the server holds, after the restart.
        lost_on_server = 0
        for u in users:
            async with session.get(f"{base}/v1/conversations/{u.conversation}/messages/since/0?limit=100",
                                   headers=u.headers()) as r:
                stored = set()
                page = await r.json()
                stored |= {m["id"] for m in page["elements"]}
                while page.get("nextCursor"):
                    last = page["elements"][-1]["seq"]
                    async with session.get(f"{base}/v1/conversations/{u.conversation}/messages/since/{last}?limit=100",
                                           headers=u.headers()) as r2:
                        page = await r2.json()
                        stored |= {m["id"] for m in page["elements"]}
            lost_on_server += len(u.acked - stored)
    proc.send_signal(signal.SIGTERM)
    code = proc.wait(timeout=15)

    acked = sum(len(u.acked) for u in users)
    missed_events = sum(len(u.acked - u.events - {f"{u.conversation}-first"}) for u in users)
    dup = sum(len(u.seqs) - len(set(u.seqs)) for u in users)
    gaps = sum(1 for u in users if u.seqs and sorted(set(u.seqs)) != list(range(min(u.seqs), max(u.seqs) + 1)))
    print(f"kill_restart: {args.clients} users; {before_kill} messages acknowledged before SIGKILL, {acked} in all; "
          f"restarted in {restarted_in * 1000:.0f} ms")
    print(f"kill_restart: acknowledged but missing on the server: {lost_on_server}; "
          f"missing from the event streams after catch-up: {missed_events}; duplicated events: {dup}; users with a gap: {gaps}; "
          f"SIGTERM exit status {code}")
    ok = lost_on_server == 0 and missed_events == 0 and dup == 0 and gaps == 0 and code == 0
    print("RESULT:", "ok" if ok else "FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    asyncio.run(main())
