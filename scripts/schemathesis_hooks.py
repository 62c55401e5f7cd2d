"""Schemathesis hooks for scripts/schemathesis_check.sh and scripts/fuzz-api.sh
(loaded through SCHEMATHESIS_HOOKS=scripts/schemathesis_hooks.py).

Every case of a user route (those whose security is the BearerToken scheme)
gets an access token of its own, issued for it by POST /v1/app/tokens, so
that no case sees a token an earlier one logged out, revoked or expired: one
token for the whole run died at the first example of `logout` and left every
later user request a 401. Each token issued is counted in
CHATBENCH_FUZZ_ISSUED (a line per token), so that the per-route counts can
leave them out.

Positive cases of routes with a conversation {id} take, one case in two,
the conversation the script seeded for the user (CHATBENCH_FUZZ_CONVERSATION),
and the app routes with a user {id} the user itself, so that requests reach
data that exists instead of a 404 each time. POST /v1/auth/refresh's positive
bodies get, one in two, a live refresh token; updateUser's attribute names are
made what the document's prose says (OpenAPI 3.0 cannot state it). Negative
cases are left as generated.

Positive uploads (POST /v1/attachments, and the agent's) send bytes as image/png, and GET /v1/attachments/{id} reads, one in two, the
attachment the script seeded in the conversation.

Environment: CHATBENCH_URL (the server), CHATBENCH_FUZZ_USER,
CHATBENCH_FUZZ_CONVERSATION, CHATBENCH_FUZZ_ATTACHMENT, CHATBENCH_FUZZ_ISSUED.
"""

import json
import os
import urllib.request
import zlib

import schemathesis
from schemathesis.core.parameters import ParameterLocation

URL = os.environ["CHATBENCH_URL"]
USER = os.environ.get("CHATBENCH_FUZZ_USER", "fuzz")
CONVERSATION = os.environ.get("CHATBENCH_FUZZ_CONVERSATION", "c1")
ATTACHMENT = os.environ.get("CHATBENCH_FUZZ_ATTACHMENT", "att-none")
# What a positive upload sends, as image/png: text, so that schemathesis still
# sees a string (the document's binary body); the server checks type and size,
# not content.
UPLOAD = "chatbench attachment bytes"
ISSUED = os.environ.get("CHATBENCH_FUZZ_ISSUED")
APP_HEADERS = {
    "X-Api-Key": "demo-key",
    "X-App-Secret": "demo-secret-0123456789abcdef",
    "Content-Type": "application/json",
}
USER_ROUTES = r"^/v1/(conversations|identity|events|attachments|limits)"


def issue_tokens():
    request = urllib.request.Request(
        URL + "/v1/app/tokens", data=json.dumps({"userId": USER}).encode(), method="POST", headers=APP_HEADERS
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        pair = json.load(response)
    if ISSUED:
        with open(ISSUED, "a") as counter:
            counter.write("1\n")
    return pair


@schemathesis.auth(refresh_interval=None).apply_to(path_regex=USER_ROUTES)
class FreshAccessToken:
    """A new access token for every case of a user route."""

    def get(self, case, context):
        return issue_tokens()["accessToken"]

    def set(self, case, data, context):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"


def _positive(case, location):
    meta = getattr(case, "_meta", None)
    return meta is None or not meta.is_negative_at(location)


def _wholly_positive(case):
    """Whether no part of the case was generated to be refused."""
    meta = getattr(case, "_meta", None)
    if meta is None:
        return True
    # A coverage scenario of the headers with "only required properties"
    # is checked as one to refuse, though no component is marked negative.
    description = getattr(getattr(getattr(meta, "phase", None), "data", None), "description", "") or ""
    if "only required" in description.lower():
        return False
    mode = getattr(getattr(meta, "generation", None), "mode", None)
    if mode is not None and mode.is_negative:
        return False
    return not any(component.mode.is_negative for component in meta.components.values())


def _attribute_name(key):
    """An attribute name as POST /v1/identity's updateUser takes it: 1 to 128
    characters, no control characters. OpenAPI 3.0 has no propertyNames,
    so the document says it in the description only, and schemathesis'
    positive bodies break it."""
    key = "".join(c for c in key if not (ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F))[:128]
    return key or "k"


@schemathesis.hook
def map_case(context, case):
    # updateUser's attribute names: what the document says in prose.
    body = case.body
    if case.path == "/v1/identity" and isinstance(body, dict) and _positive(case, ParameterLocation.BODY):
        update = body.get("updateUser")
        if isinstance(update, dict) and isinstance(update.get("attributes"), dict):
            attributes = {_attribute_name(key): value for key, value in update["attributes"].items()}
            case.body = {**body, "updateUser": {**update, "attributes": attributes}}
    # POST /v1/auth/refresh: a live refresh token for one positive body in two.
    body = case.body
    if case.path == "/v1/auth/refresh" and isinstance(body, dict) and isinstance(body.get("refreshToken"), str):
        if _positive(case, ParameterLocation.BODY) and not zlib.crc32(body["refreshToken"].encode()) % 2:
            case.body = {**body, "refreshToken": issue_tokens()["refreshToken"]}
    # POST /v1/attachments and the agent's: a type the app takes for every positive case (a
    # generated Content-Type is one it refuses; negative cases stay as generated).
    if case.path in ("/v1/attachments", "/v1/agent/conversations/{id}/attachments") and _wholly_positive(case):
        case.media_type = "image/png"
        case.body = UPLOAD
    identifier = (case.path_parameters or {}).get("id")
    if not isinstance(identifier, str) or not _positive(case, ParameterLocation.PATH):
        return case
    # One case in two, decided by what was generated (so that runs repeat
    # with a seed; the coverage phase gives many cases the same id).
    if zlib.crc32(repr((case.path_parameters, case.query, case.headers, case.body)).encode()) % 2:
        return case
    if case.path.startswith("/v1/app/users/"):
        case.path_parameters["id"] = USER
    elif "/conversations/{id}" in case.path:
        case.path_parameters["id"] = CONVERSATION
    elif case.path == "/v1/attachments/{id}":
        case.path_parameters["id"] = ATTACHMENT
    return case
