#!/usr/bin/env python3
"""A client of `chatbench serve` written from docs/openapi.json alone (issue 13).

It uses only what the document says: the demo credentials in its
description, the security schemes, the identity request cases, every user
operation, pagination by nextCursor, and the event stream (Ready frame, then
Events in userSeq order, catch-up with `after`). It uses httpx and
websockets, libraries the project did not write.

    scripts/third_party_client.py PATH/TO/chatbench

Exit status 0 when every step behaved as the document says.
"""
import asyncio
import base64
import hashlib
import hmac
import json
import os
import subprocess
import sys
import time

import httpx
import websockets

API_KEY = "demo-key"  # the document's description: serve's demo app
SECRET = "demo-secret-0123456789abcdef"
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def jwt(external_id, name=None):
    """HS256, signed with the app secret; external_id and exp required."""
    def b64(raw):
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
    header = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    claims = {"external_id": external_id, "exp": int(time.time()) + 3600}
    if name:
        claims["name"] = name
    payload = b64(json.dumps(claims).encode())
    signature = hmac.new(SECRET.encode(), f"{header}.{payload}".encode(), hashlib.sha256).digest()
    return f"{header}.{payload}.{b64(signature)}"


def text(value):
    return {"text": {"_0": value}}  # Content: Swift's keyed encoding


async def main(base):
    ws_base = base.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=base, timeout=10) as http:
        check((await http.get("/health")).status_code == 200, "GET /health answers 200")

        # Identity: each case of IdentityRequest the demo app allows.
        anon = await http.post("/v1/identity", headers={"X-Api-Key": API_KEY}, json={"loginAnonymous": {}})
        check(anon.status_code == 200 and "session" in anon.json(), "loginAnonymous signs a new user in")
        alice = await http.post("/v1/identity", headers={"X-Api-Key": API_KEY},
                                json={"loginJWT": {"jwt": jwt("alice", "Alice")}})
        session = alice.json().get("session", {})
        check(alice.status_code == 200 and session.get("user", {}).get("id") == "alice", "loginJWT signs alice in")
        forged = await http.post("/v1/identity", headers={"X-Api-Key": API_KEY},
                                 json={"loginJWT": {"jwt": jwt("alice")[:-2] + "xx"}})
        check(forged.status_code == 401 and forged.json().get("code") == "invalidJWT", "a forged JWT is 401 invalidJWT")
        user_id_only = await http.post("/v1/identity", headers={"X-Api-Key": API_KEY},
                                       json={"connectUserId": {"userId": "carol"}})
        check(user_id_only.status_code == 200, "connectUserId signs in where the app allows it (the demo app does)")
        tokens = session["tokens"]
        user = {"X-Api-Key": API_KEY, "Authorization": f"Bearer {tokens['accessToken']}", "X-Device-Id": "py-1"}
        me = await http.post("/v1/identity", headers=user, json={"getCurrentUser": {}})
        check(me.status_code == 200 and "user" in me.json(), "getCurrentUser answers the user")

        # The event stream, opened before anything happens: Ready, then events.
        async with websockets.connect(f"{ws_base}/v1/events", additional_headers=user) as stream:
            ready = json.loads(await asyncio.wait_for(stream.recv(), 5))
            check(ready == {"ready": True}, "the event stream starts with a Ready frame")

            # Messages: the first creates the conversation; resending is idempotent.
            body = {"createConversation": {"title": "from python"}, "message": {"id": "py-m1", "content": text("hello")}}
            sent = await http.post("/v1/conversations/py-c1/messages", headers=user, json=body)
            again = await http.post("/v1/conversations/py-c1/messages", headers=user, json=body)
            check(sent.status_code == 200 and again.json() == sent.json(), "sendMessage creates, and a resend is idempotent")
            conversation_id = sent.json()["conversation"]["id"]
            for i in range(2, 8):
                message = {"message": {"id": f"py-m{i}", "content": text(f"message {i}")}}
                response = await http.post(f"/v1/conversations/{conversation_id}/messages", headers=user, json=message)
                check(response.status_code == 200, f"message {i} is sent")
            app = {"X-Api-Key": API_KEY, "X-App-Secret": SECRET}
            said = await http.post(f"/v1/agent/conversations/{conversation_id}/say", headers=app,
                                   json={"text": "How can I help?"})
            check(said.status_code == 200, "the app's backend says something as the agent")
            typing = await http.post(f"/v1/conversations/{conversation_id}/typing", headers=user, json={"isTyping": True})
            check(typing.status_code in (200, 204), "setTyping is accepted")

            # Events: in userSeq order, the agent's message among them.
            events, last_seq = [], 0
            while not any("messageCreated" in e["kind"] and e["kind"]["messageCreated"]["_0"]["author"].get("provider")
                          for e in events):
                events.append(json.loads(await asyncio.wait_for(stream.recv(), 5)))
            seqs = [e["userSeq"] for e in events]
            check(seqs == sorted(seqs) and len(set(seqs)) == len(seqs), f"events arrive in userSeq order ({len(seqs)})")
            last_seq = seqs[-1]

        # Catch-up: a new stream with after = the last seen gets only what is new.
        await http.post(f"/v1/agent/conversations/{conversation_id}/say", headers=app, json={"text": "Still there?"})
        async with websockets.connect(f"{ws_base}/v1/events?after={last_seq}", additional_headers=user) as stream:
            check(json.loads(await asyncio.wait_for(stream.recv(), 5)) == {"ready": True}, "a catch-up stream is ready")
            caught = json.loads(await asyncio.wait_for(stream.recv(), 5))
            check(caught["userSeq"] == last_seq + 1, "catch-up starts right after the last event seen")

        # Pagination: every nextCursor leads on, no page twice, to the end.
        async def walk(path, params):
            seen, pages, cursor = [], 0, None
            while True:
                query = dict(params, **({"cursor": cursor} if cursor else {}))
                page = (await http.get(path, headers=user, params=query)).json()
                pages += 1
                seen += [element["id"] for element in page["elements"]]
                cursor = page.get("nextCursor")
                if cursor is None or pages > 50:
                    return seen, pages
        newest_first, pages = await walk(f"/v1/conversations/{conversation_id}/messages", {"limit": 3})
        check(len(newest_first) == 9 and len(set(newest_first)) == 9 and pages == 3,
              f"listMessages pages by nextCursor: 9 messages in {pages} pages, none twice")
        since, pages = await walk(f"/v1/conversations/{conversation_id}/messages/since/0", {"limit": 3})
        check(since == list(reversed(newest_first)) and pages <= 4,
              f"messagesSince pages by nextCursor: oldest first, in {pages} pages, none twice")
        listed, _ = await walk("/v1/conversations", {"limit": 1})
        check(listed == [conversation_id], "listConversations lists the user's conversation")
        one = await http.get(f"/v1/conversations/{conversation_id}", headers=user)
        check(one.status_code == 200 and one.json()["lastSeq"] == 9, "getConversation answers its lastSeq")

        # Another user cannot read it, and cannot squat its id either.
        bob = (await http.post("/v1/app/tokens", headers=app, json={"userId": "bob"})).json()
        bob_headers = {"X-Api-Key": API_KEY, "Authorization": f"Bearer {bob['accessToken']}"}
        refused = await http.get(f"/v1/conversations/{conversation_id}", headers=bob_headers)
        check(refused.status_code == 403 and refused.json()["code"] == "forbidden", "another user's conversation is 403")
        squat = await http.post(f"/v1/conversations/{conversation_id}/messages", headers=bob_headers,
                                json={"createConversation": {}, "message": {"id": "b1", "content": text("mine")}})
        check(squat.status_code == 200 and squat.json()["conversation"]["id"] != conversation_id,
              "creating under another user's id gives a conversation of one's own")

        # Attachments: the bytes are uploaded with their type, a message names
        # them, and only the conversation's owner reads them back.
        png = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "files", "dot.png"), "rb").read()
        limits = await http.get("/v1/limits", headers=user)
        check(limits.status_code == 200 and limits.json().get("maxAttachmentBytes", 0) >= len(png)
              and "image/png" in limits.json().get("allowedMimeTypes", []),
              "limits gives the app's maxAttachmentBytes and allowedMimeTypes")
        stored = await http.post("/v1/attachments", headers=dict(user, **{"Content-Type": "image/png"}), content=png)
        attachment = stored.json() if stored.status_code == 201 else {}
        check(stored.status_code == 201 and attachment.get("size") == len(png)
              and attachment.get("sha256") == hashlib.sha256(png).hexdigest(), "uploadAttachment stores the bytes (201, sha256)")
        named = {"message": {"id": "py-a1", "content": {"attachment": {
            "kind": "image", "mimeType": "image/png", "size": len(png), "fileName": "dot.png", "id": attachment.get("id", "x")}}}}
        sent = await http.post(f"/v1/conversations/{conversation_id}/messages", headers=user, json=named)
        check(sent.status_code == 200, "a message names the uploaded bytes")
        read = await http.get(f"/v1/attachments/{attachment.get('id', 'x')}", headers=user)
        check(read.status_code == 200 and read.content == png and read.headers.get("Content-Type") == "image/png"
              and read.headers.get("X-Attachment-Type") == "image/png",
              "attachmentData gives the owner the bytes with their own Content-Type")
        theirs = await http.get(f"/v1/attachments/{attachment.get('id', 'x')}", headers=bob_headers)
        unknown = await http.get("/v1/attachments/att-none", headers=bob_headers)
        check(theirs.status_code == 404 and theirs.json() == unknown.json(),
              "another user is told what an unknown id is told (404 unknownAttachment)")
        wrong = await http.post("/v1/attachments", headers=dict(user, **{"Content-Type": "text/x-shellscript"}), content=b"echo")
        check(wrong.status_code == 415 and wrong.json()["code"] == "unsupportedMediaType", "a type the app refuses is 415")
        small = await http.post("/v1/app/settings", headers=app,
                                json={"settings": [{"key": "maxAttachmentBytes", "value": str(len(png) - 1)}]})
        big = await http.post("/v1/attachments", headers=dict(user, **{"Content-Type": "image/png"}), content=png)
        check(small.status_code == 200 and big.status_code == 413 and big.json()["code"] == "attachmentTooLarge",
              "more bytes than maxAttachmentBytes is 413")

        # Refresh, then logout ends the session.
        refreshed = await http.post("/v1/auth/refresh", headers={"X-Api-Key": API_KEY, "X-Device-Id": "py-1"},
                                    json={"refreshToken": tokens["refreshToken"]})
        check(refreshed.status_code == 200 and "accessToken" in refreshed.json(), "refresh answers a new token pair")
        user["Authorization"] = f"Bearer {refreshed.json()['accessToken']}"
        logout = await http.post("/v1/identity", headers=user, json={"logout": {}})
        check(logout.status_code == 200, "logout is accepted")
        after = await http.get("/v1/conversations", headers=user)
        check(after.status_code == 401 and after.json()["code"] == "invalidToken", "after logout the token is refused (401)")

        # An app that turns user-id-only sign-in off refuses it.
        off = await http.post("/v1/app/settings", headers=app, json={"settings": [{"key": "allowUserIdOnly", "value": "false"}]})
        check(off.status_code == 200, "the app's backend turns allowUserIdOnly off")
        refused = await http.post("/v1/identity", headers={"X-Api-Key": API_KEY}, json={"connectUserId": {"userId": "carol"}})
        check(refused.status_code == 403 and refused.json()["code"] == "userIdOnlyNotAllowed",
              "connectUserId is then 403 userIdOnlyNotAllowed")


if __name__ == "__main__":
    server = subprocess.Popen([sys.argv[1], "serve", "--port", "0", "--db", ":memory:", "--log-level", "error"],
                              stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        base = line[line.index("http://"):].split()[0]
        asyncio.run(main(base))
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(f"third-party client: {'all passed' if not failures else f'{len(failures)} failed'}")
    sys.exit(1 if failures else 0)
