#!/usr/bin/env python3
"""Checks of `chatbench serve` over real sockets (issue 13), run by scripts/test.sh.

    scripts/server_checks.py PATH/TO/chatbench

- docs/openapi.json is valid OpenAPI 3.0 (openapi-spec-validator);
- a malformed request line, a TLS ClientHello and a 128 KB header are
  answered (400, 400, 431, with a JSON error) and the connection closes;
- a connection that sends nothing, or nothing after its answer, is closed
  after --idle-timeout;
- a request whose head trickles in a byte at a time (each within the idle
  timeout) is closed at --request-timeout;
- a refused WebSocket upgrade is answered 401 / 400 with the JSON error;
- SIGTERM with idle clients connected exits at once; a request still being
  sent gets --shutdown-grace, then the server exits.

Exits 1 naming each check that failed. Takes a few seconds.
"""
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish


def start(binary, *options):
    process = subprocess.Popen([binary, "serve", "--port", "0", "--db", ":memory:", "--log-level", "error", *options],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    port = int(line.split("http://127.0.0.1:")[1].split(" ")[0])
    return process, port


def exchange(port, data, timeout=5.0):
    """Sends bytes, returns (answer bytes, whether the server closed) within timeout."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        connection.sendall(data)
        received = b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                chunk = connection.recv(65536)
            except (ConnectionResetError, BrokenPipeError):
                return received, True
            except socket.timeout:
                return received, False
            if not chunk:
                return received, True
            received += chunk
        return received, False


def parse(answer):
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ")[1]) if head.startswith(b"HTTP/1.1 ") else None
    try:
        return status, json.loads(body) if body else None
    except ValueError:
        return status, None


def request(port, method, path, headers=None, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method, headers=headers or {})
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=5) as answer:
            raw = answer.read()
            return answer.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def upgrade(port, query="", headers=""):
    return (f"GET /v1/events{query} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n{headers}\r\n").encode()


def checks_of_the_document():
    from openapi_spec_validator import validate
    from openapi_spec_validator.readers import read_from_filename
    spec, _ = read_from_filename(os.path.join(ROOT, "docs", "openapi.json"))
    try:
        validate(spec)
        check("docs/openapi.json is valid OpenAPI", True)
    except Exception as error:  # noqa: BLE001 - the validator's message is the report
        check("docs/openapi.json is valid OpenAPI", False, str(error).splitlines()[0])


def checks_of_malformed_requests(port):
    status, body = parse(exchange(port, b"GARBAGE / HTTP/9.9\r\n\r\n")[0])
    closed = exchange(port, b"GARBAGE / HTTP/9.9\r\n\r\n")[1]
    check("a bad request line is answered 400 badRequest", status == 400 and (body or {}).get("code") == "badRequest", f"{status} {body}")
    check("... and the connection closes", closed)
    hello = bytes.fromhex("16030100a5010000a10303") + os.urandom(32) + bytes.fromhex("000020c02bc02fc02cc030cca9cca8c013c014009c009d002f0035000a0100005800000014")
    answer, closed = exchange(port, hello)
    status, body = parse(answer)
    check("a TLS ClientHello is answered 400 and closed", status == 400 and closed, f"{answer[:80]!r} closed={closed}")
    huge = b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (128 * 1024) + b"\r\n\r\n"
    answer, closed = exchange(port, huge)
    status, body = parse(answer)
    check("a 128 KB header is answered 431 headersTooLarge", status == 431 and (body or {}).get("code") == "headersTooLarge", f"{answer[:120]!r}")
    check("... and the connection closes", closed)


def checks_of_idle_connections(port, idle):
    start_time = time.monotonic()
    answer, closed = exchange(port, b"", timeout=idle + 3)
    elapsed = time.monotonic() - start_time
    check(f"a silent connection is closed after the idle timeout ({elapsed:.2f} s)", closed and idle - 0.2 <= elapsed <= idle + 2, f"closed={closed}")
    start_time = time.monotonic()
    answer, closed = exchange(port, b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n", timeout=idle + 3)
    elapsed = time.monotonic() - start_time
    check(f"a keep-alive connection is closed after the idle timeout ({elapsed:.2f} s)",
          closed and answer.startswith(b"HTTP/1.1 200") and elapsed <= idle + 2, f"{answer[:40]!r} closed={closed}")


def checks_of_slow_requests(port, request_timeout):
    """A head sent a byte every 0.4 s (the idle timer restarts on each) is closed at the request timeout."""
    head = b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 1000
    began, closed = time.monotonic(), False
    with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
        for index in range(int((request_timeout + 3) / 0.4)):
            try:
                connection.sendall(head[index:index + 1])
                connection.settimeout(0.4)
                if connection.recv(4096) == b"":
                    closed = True
                    break
            except socket.timeout:
                continue
            except (ConnectionResetError, BrokenPipeError):
                closed = True
                break
    elapsed = time.monotonic() - began
    check(f"a request trickled a byte at a time is closed at the request timeout ({elapsed:.2f} s)",
          closed and request_timeout - 0.2 <= elapsed <= request_timeout + 1.5, f"closed={closed}")


def checks_of_refused_upgrades(port):
    secret = {"X-Api-Key": "demo-key", "X-App-Secret": "demo-secret-0123456789abcdef"}
    status, tokens = request(port, "POST", "/v1/app/tokens", secret, {"userId": "ws-checks"})
    token = tokens["accessToken"]
    cases = [
        ("no credentials", upgrade(port), 401, "invalidApiKey"),
        ("a forged token", upgrade(port, headers="X-Api-Key: demo-key\r\nAuthorization: Bearer at-forged\r\n"), 401, "invalidToken"),
        ("after=-1", upgrade(port, "?after=-1", f"X-Api-Key: demo-key\r\nAuthorization: Bearer {token}\r\n"), 400, "badRequest"),
    ]
    for label, data, expected, code in cases:
        answer, closed = exchange(port, data)
        status, body = parse(answer)
        check(f"an upgrade with {label} is answered {expected} {code}", status == expected and (body or {}).get("code") == code,
              f"{answer[:200]!r}")
    request(port, "POST", "/v1/app/users/ws-checks/tokens/expire", secret)
    status, body = parse(exchange(port, upgrade(port, headers=f"X-Api-Key: demo-key\r\nAuthorization: Bearer {token}\r\n"))[0])
    check("an upgrade with an expired token is answered 401 expiredToken", status == 401 and (body or {}).get("code") == "expiredToken",
          f"{status} {body}")
    status, tokens = request(port, "POST", "/v1/app/tokens", secret, {"userId": "ws-checks"})
    answer, _ = exchange(port, upgrade(port, headers=f"X-Api-Key: demo-key\r\nAuthorization: Bearer {tokens['accessToken']}\r\n"), timeout=1)
    check("a good upgrade switches protocols", answer.startswith(b"HTTP/1.1 101"), f"{answer[:80]!r}")


def checks_of_shutdown(binary):
    process, port = start(binary, "--shutdown-grace", "2")
    silent = socket.create_connection(("127.0.0.1", port))
    kept = socket.create_connection(("127.0.0.1", port))
    kept.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
    kept.recv(4096)
    time.sleep(0.2)
    began = time.monotonic()
    process.terminate()
    code = process.wait(timeout=20)
    elapsed = time.monotonic() - began
    check(f"SIGTERM with idle clients connected exits at once ({elapsed:.2f} s)", code == 0 and elapsed < 1.0, f"exit {code}")
    silent.close()
    kept.close()

    process, port = start(binary, "--shutdown-grace", "2")
    sending = socket.create_connection(("127.0.0.1", port))
    sending.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")  # the request is not finished
    time.sleep(0.2)
    began = time.monotonic()
    process.terminate()
    code = process.wait(timeout=20)
    elapsed = time.monotonic() - began
    check(f"SIGTERM with a request in flight waits for the grace period, then exits ({elapsed:.2f} s)",
          code == 0 and 1.8 <= elapsed < 4.0, f"exit {code}")
    sending.close()


def main():
    binary = sys.argv[1]
    checks_of_the_document()
    idle = 1.0
    request_timeout = 3.0
    process, port = start(binary, "--idle-timeout", str(idle), "--request-timeout", str(request_timeout))
    try:
        checks_of_malformed_requests(port)
        checks_of_idle_connections(port, idle)
        checks_of_slow_requests(port, request_timeout)
        checks_of_refused_upgrades(port)
    finally:
        process.terminate()
        process.wait(timeout=20)
    checks_of_shutdown(binary)
    finish("server checks")


if __name__ == "__main__":
    main()
