#!/usr/bin/env python3
"""Load test of a running `chatbench serve` (loopback only, bounded).

N users each hold a WebSocket on /v1/events and send messages over HTTP at a
fixed total rate for D seconds. Every message a user sends comes back on the
user's own event stream (the server pushes a user's messages to all of the
user's connections), so each client both sends and receives. Reports
messages per second, delivery latency (HTTP send start -> event received)
p50/p99, and checks that every acknowledged message is received exactly
once, with each user's userSeq contiguous (no gap, no duplicate).

Usage: load_test.py BASE_URL [--clients N] [--seconds D] [--rate MSG_PER_S]
"""
import argparse
import asyncio
import json
import random
import statistics
import sys
import time

import aiohttp

API_KEY = "demo-key"
SECRET = "demo-secret-0123456789abcdef"


def percentile(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    k = (len(values) - 1) * p / 100
    f = int(k)
    c = min(f + 1, len(values) - 1)
    return values[f] + (values[c] - values[f]) * (k - f)


class Client:
    def __init__(self, index, run_id):
        self.user = f"load-{run_id}-{index}"
        self.conversation = f"conv-{run_id}-{index}"
        self.token = None
        self.sent_at = {}  # message id -> monotonic send start
        self.acked = set()
        self.received = {}  # message id -> count
        self.latencies = []
        self.seqs = []
        self.ws = None
        self.errors = 0
        self.ready = asyncio.Event()


async def setup(session, base, client):
    async with session.post(f"{base}/v1/app/tokens", json={"userId": client.user},
                            headers={"X-Api-Key": API_KEY, "X-App-Secret": SECRET}) as r:
        r.raise_for_status()
        client.token = (await r.json())["accessToken"]
    body = {"createConversation": {"title": "load"},
            "message": {"id": f"{client.conversation}-hello", "content": {"text": {"_0": "hello"}}}}
    async with session.post(f"{base}/v1/conversations/{client.conversation}/messages", json=body,
                            headers=headers(client)) as r:
        r.raise_for_status()


def headers(client):
    return {"X-Api-Key": API_KEY, "Authorization": f"Bearer {client.token}"}


async def listen(session, base, client, stop):
    url = base.replace("http", "ws", 1) + "/v1/events"
    async with session.ws_connect(url, headers=headers(client), heartbeat=None, max_msg_size=1 << 22) as ws:
        client.ws = ws
        async for msg in ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            now = time.monotonic()
            frame = json.loads(msg.data)
            if frame.get("ready"):
                client.ready.set()
                continue
            client.seqs.append(frame["userSeq"])
            kind = frame["kind"]
            if "messageCreated" in kind:
                mid = kind["messageCreated"]["_0"]["id"]
                client.received[mid] = client.received.get(mid, 0) + 1
                start = client.sent_at.get(mid)
                if start is not None and client.received[mid] == 1:
                    client.latencies.append((now - start) * 1000)
            if stop.is_set() and client.acked.issubset(client.received.keys()):
                break


async def send_one(session, base, client, n):
    mid = f"{client.conversation}-{n}"
    body = {"message": {"id": mid, "content": {"text": {"_0": f"message {n}"}}}}
    client.sent_at[mid] = time.monotonic()
    try:
        async with session.post(f"{base}/v1/conversations/{client.conversation}/messages", json=body,
                                headers=headers(client)) as r:
            if r.status == 200:
                client.acked.add(mid)
            else:
                client.errors += 1
    except (aiohttp.ClientError, asyncio.TimeoutError):
        client.errors += 1


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--rate", type=float, default=1000, help="messages per second, all clients together")
    args = parser.parse_args()
    if not (args.base.startswith("http://127.0.0.1") or args.base.startswith("http://localhost")):
        sys.exit("load_test.py: loopback only")

    run_id = f"{random.getrandbits(32):08x}"
    clients = [Client(i, run_id) for i in range(args.clients)]
    connector = aiohttp.TCPConnector(limit=64)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=30)) as session:
        t0 = time.monotonic()
        sem = asyncio.Semaphore(32)

        async def guarded(c):
            async with sem:
                await setup(session, args.base, c)
        await asyncio.gather(*(guarded(c) for c in clients))
        stop = asyncio.Event()
        ws_session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0), timeout=aiohttp.ClientTimeout(total=None))
        listeners = [asyncio.create_task(listen(ws_session, args.base, c, stop)) for c in clients]
        await asyncio.wait_for(asyncio.gather(*(c.ready.wait() for c in clients)), timeout=60)
        print(f"setup: {args.clients} users, conversations and open event streams in {time.monotonic() - t0:.1f} s", flush=True)

        # Send at a fixed total rate, round-robin over clients.
        interval = 1.0 / args.rate
        start = time.monotonic()
        n = 0
        inflight = set()
        while True:
            now = time.monotonic()
            if now - start >= args.seconds:
                break
            due = int((now - start) / interval)
            while n < due:
                client = clients[n % len(clients)]
                task = asyncio.create_task(send_one(session, args.base, client, n))
                inflight.add(task)
                task.add_done_callback(inflight.discard)
                n += 1
            await asyncio.sleep(min(interval, 0.005))
        if inflight:
            await asyncio.gather(*inflight)
        send_elapsed = time.monotonic() - start
        stop.set()
        # Wait (bounded) for every acknowledged message to arrive.
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and not all(c.acked.issubset(c.received.keys()) for c in clients):
            await asyncio.sleep(0.05)
        for c in clients:
            if c.ws is not None:
                await c.ws.close()
        await asyncio.gather(*listeners, return_exceptions=True)
        await ws_session.close()

    acked = sum(len(c.acked) for c in clients)
    errors = sum(c.errors for c in clients)
    lost = sum(len(c.acked - c.received.keys()) for c in clients)
    duplicated = sum(sum(1 for v in c.received.values() if v > 1) for c in clients)
    gaps = sum(1 for c in clients if c.seqs and c.seqs != list(range(c.seqs[0], c.seqs[0] + len(c.seqs))))
    latencies = [l for c in clients for l in c.latencies]
    print(f"sent: {n} messages in {send_elapsed:.1f} s ({n / send_elapsed:.0f} msg/s offered), "
          f"{acked} acknowledged ({acked / send_elapsed:.0f} msg/s), {errors} failed")
    print(f"delivered: {len(latencies)} pushed to their event streams; "
          f"latency p50 {percentile(latencies, 50):.1f} ms, p99 {percentile(latencies, 99):.1f} ms, "
          f"max {max(latencies) if latencies else float('nan'):.1f} ms")
    print(f"integrity: lost {lost}, duplicated {duplicated}, users with a userSeq gap {gaps}")
    ok = lost == 0 and duplicated == 0 and gaps == 0 and errors == 0
    print("RESULT:", "ok" if ok else "FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    asyncio.run(main())
