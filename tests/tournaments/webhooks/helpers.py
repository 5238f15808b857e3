"""Helpers of the webhook tests: a real HTTP receiver on 127.0.0.1 (a thread of the test
process) that checks signatures, fails or answers slowly when told to, and records what it
got; and a real Celery worker (a subprocess on the test database and Redis)."""

from __future__ import annotations

import json
import select
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from tests.helpers import celery_sends_to, worker_database_url
from tournaments.webhooks.signing import SIGNATURE_HEADER, signature_verify

ROOT = Path(__file__).resolve().parents[3]


@dataclass
class Received:
    event_id: int
    position: int
    delivery: str
    attempt: int
    signed: bool  # the signature checked out with the receiver's secret
    body: dict[str, Any]
    answered: int  # the status it answered (0: it was too slow to matter)


@dataclass
class Receiver:
    """What to answer: `plan(n, position)` for the n-th request (1-based) of the event at
    `position` gives "ok", "fail" (500), "slow" (200 once the sender has given up waiting
    and hung up, at most `slow_seconds` after the request: too slow whatever the machine's
    load) or "hold" (200 once `release` is set)."""

    secret: str = ""
    plan: Callable[[int, int], str] = lambda n, position: "ok"
    slow_seconds: float = 120.0
    received: list[Received] = field(default_factory=list)
    holding: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    url: str = ""

    def by_event(self) -> dict[int, list[Received]]:
        with self.lock:
            grouped: dict[int, list[Received]] = {}
            for r in self.received:
                grouped.setdefault(r.event_id, []).append(r)
            return grouped


def _handler(receiver: Receiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            signed = signature_verify(
                secret=receiver.secret, body=body, header=self.headers.get(SIGNATURE_HEADER, "")
            )
            event_id = int(self.headers["X-HG-Event-Id"])
            with receiver.lock:
                n = 1 + sum(1 for r in receiver.received if r.event_id == event_id)
                record = Received(
                    event_id=event_id,
                    position=int(self.headers["X-HG-Event-Position"]),
                    delivery=self.headers["X-HG-Delivery"],
                    attempt=int(self.headers["X-HG-Attempt"]),
                    signed=signed,
                    body=json.loads(body),
                    answered=0,
                )
                receiver.received.append(record)
            what = receiver.plan(n, record.position) if signed else "fail"
            if what == "slow":
                _until_hung_up(self.connection, within=receiver.slow_seconds)
            elif what == "hold":
                receiver.holding.set()
                receiver.release.wait(30)
            status = 500 if what == "fail" else 200
            record.answered = status
            try:
                self.send_response(status)
                self.send_header("Content-Type", "text/plain")
                self.end_headers()
                self.wfile.write(b"ok" if status == 200 else b"try again later")
            except OSError:
                pass  # the sender gave up waiting (timed out, or was killed)

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass

    return Handler


def _until_hung_up(sock: socket.socket, *, within: float) -> None:
    """Until the client has closed the connection (it timed out), at most `within` s."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        readable, _, _ = select.select([sock], [], [], 0.05)
        if readable:
            try:
                if sock.recv(1, socket.MSG_PEEK) == b"":
                    return
            except OSError:
                return


@contextmanager
def receiving(receiver: Receiver) -> Iterator[Receiver]:
    """Serve `receiver` on 127.0.0.1 (a free port) while the block runs."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(receiver))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}/hooks/gin?club=1"
    try:
        yield receiver
    finally:
        receiver.release.set()
        server.shutdown()
        server.server_close()


def wait_for(what: str, check: Callable[[], Any], timeout: float = 180.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")


# --- a real Celery worker ---------------------------------------------------------------------

# The settings the worker runs with (its environment) and the test process too. The timeout
# is generous: on a busy machine the receiver (a thread of the test process) may take a
# second or more to answer, and an answer taken for a timeout is an attempt too many. A
# "slow" answer waits for the sender to give up, however long its timeout.
FAST_WEBHOOKS = {
    "WEBHOOK_ALLOWED_NETWORKS": "127.0.0.1/32",
    "WEBHOOK_TIMEOUT_SECONDS": "5",
    "WEBHOOK_BACKOFF_SECONDS": "0.4",
    "WEBHOOK_BACKOFF_MAX_SECONDS": "1",
    "WEBHOOK_MAX_ATTEMPTS": "6",
}


def database_url(db: dict[str, Any]) -> str:
    """The test database as a URL (`db` is the connection's settings, as the test's)."""
    return worker_database_url()


def app_sends_to(celery_app: Any, url: str, queue: str) -> AbstractContextManager[None]:
    """The test process's Celery app queues to the worker's broker and queue."""
    return celery_sends_to(url, queue)


@dataclass
class Worker:
    """A Celery worker subprocess on one queue; `kill()` is SIGKILL, `start()` another."""

    celery_app: Any
    env: dict[str, str]
    queue: str
    log_path: Path
    proc: subprocess.Popen | None = None
    node: str = ""

    def start(self) -> None:
        self.node = f"webhooks-{uuid.uuid4().hex[:6]}@localhost"
        log = open(self.log_path, "a")  # noqa: SIM115 - closed with the process
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "tests.tournaments.tasks.worker_app",
             "worker", "--pool=threads", "--concurrency=2", "-n", self.node, "-Q", self.queue,
             "-l", "INFO", "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        log.close()
        proc = self.proc
        wait_for(
            f"the worker {self.node} to answer a ping (log: {self.log_path})",
            lambda: (
                proc.poll() is None
                and self.celery_app.control.ping(destination=[self.node], timeout=1.0)
            ),
            timeout=60,
        )

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()  # SIGKILL: no warm shutdown, no ack of the job in hand
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
