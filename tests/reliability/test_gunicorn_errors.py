"""Issue 26 (6): gunicorn answers some malformed requests itself, before Django sees them
(a header too long, too many headers, a malformed header, a request line too long). Served
with deploy/gunicorn.conf.py, those answers are the API's JSON error shape, not HTML."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import free_port

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).with_name("gunicorn")


@pytest.fixture(scope="module")
def gunicorn() -> Iterator[int]:
    port = free_port()
    env = {
        **os.environ,
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "1",
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
    }
    server = subprocess.Popen(
        [str(GUNICORN), "-c", "deploy/gunicorn.conf.py", "config.wsgi"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60  # a busy machine: boot waits for a free core
        while True:
            assert server.poll() is None, server.stderr.read().decode()
            try:
                # Answered (not only accepted): a worker is up.
                status, _, _ = send(port, b"GET /\x00 HTTP/1.1\r\nHost: x\r\n\r\n")
                if status:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "gunicorn did not start"
            time.sleep(0.1)
        yield port
    finally:
        server.terminate()
        server.wait(30)


def send(port: int, raw: bytes) -> tuple[int, dict[str, str], bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(raw)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    data = b"".join(chunks)
    head, _, body = data.partition(b"\r\n\r\n")
    if not head:
        return 0, {}, b""
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    return int(lines[0].split()[1]), {k.lower(): v for k, v in headers.items()}, body


def request(*headers: str, path: str = "/api/ping/") -> bytes:
    lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", *headers, "Connection: close"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


@pytest.mark.parametrize(
    ("raw", "status", "code"),
    [
        (request("X-Big: " + "a" * 9000), 431, "header_too_large"),
        (request(*[f"X-H{n}: v" for n in range(150)]), 431, "header_too_large"),
        (request("This is not a header"), 400, "bad_request"),
        (request("Bad Name: v"), 400, "bad_request"),
        (request(path="/api/ping/?q=" + "a" * 5000), 414, "uri_too_long"),
    ],
    ids=["header-too-long", "too-many-headers", "no-colon", "space-in-name", "line-too-long"],
)
def test_gunicorns_own_errors_are_json(gunicorn, raw, status, code):
    got, headers, body = send(gunicorn, raw)
    assert got == status, body
    assert headers["content-type"] == "application/json"
    assert int(headers["content-length"]) == len(body)
    error = json.loads(body)["error"]
    assert error["code"] == code and error["message"]
    assert b"aaaa" not in body  # nothing of the client's request echoed
