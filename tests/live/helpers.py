"""Helpers of the live-stream tests: the app served by a real uvicorn in a thread (on the
test database, which the tests commit to), and a server-sent-events reader."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx
from django.db import OperationalError, connection

T = TypeVar("T")


def written(fn: Callable[[], T], within: float = 120.0) -> T:
    """`fn()`, a service's write, done again while SQLite's shared-cache test database
    refuses it at once with "table is locked" because the stream's reader, in the server's
    thread, holds a read lock on a table it writes (the service's transaction was rolled
    back: nothing was written). A file database (`make run`) waits on its busy timeout
    instead, and PostgreSQL has no such lock; there this is one call."""
    deadline = time.monotonic() + within
    while True:
        try:
            return fn()
        except OperationalError as exc:
            locked = connection.vendor == "sqlite" and "is locked" in str(exc)
            if not locked or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


@contextmanager
def asgi_server(*, static: bool = False) -> Iterator[str]:
    """The Django ASGI app as served (core.asgi: the streams' requests handed their
    connection's `send`) under uvicorn on 127.0.0.1 (a free port), in a thread: yields its
    base URL. `static`: with its static files too, as `make run` serves them. Use it with a
    transactional database: the server's threads read with their own connections."""
    import uvicorn
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.core.asgi import get_asgi_application

    from core.asgi import with_graceful_stop

    app = get_asgi_application()
    if static:
        app = ASGIStaticFilesHandler(app)
    app = with_graceful_stop(app)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", lifespan="off", timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])))
    thread.start()
    deadline = time.monotonic() + 60  # a busy machine imports and binds slowly
    while not server.started and time.monotonic() < deadline and thread.is_alive():
        time.sleep(0.02)
    assert server.started, "uvicorn did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
        from core import live

        live.shutdown()


@dataclass
class Message:
    event: str
    data: Any
    id: int | None = None


@dataclass
class Follower:
    """A connection to a stream, read message by message (comments counted apart)."""

    url: str
    headers: dict[str, str] = field(default_factory=dict)
    comments: int = 0

    def __post_init__(self) -> None:
        # Generous: on a busy machine the server in its thread may take many seconds to
        # answer (a wait for a condition, not a measure of speed).
        self.client = httpx.Client(timeout=httpx.Timeout(60.0, read=60.0))
        self.context = self.client.stream("GET", self.url, headers=self.headers)
        self.response = self.context.__enter__()
        self.lines = self.response.iter_lines()

    @property
    def status(self) -> int:
        return self.response.status_code

    def next(self, within: float = 60.0) -> Message:
        """The next message; AssertionError if none comes `within` seconds (keep-alive
        comments do not count)."""
        message = self._next(within, idle_ends=False)
        assert message is not None
        return message

    def _next(self, within: float, *, idle_ends: bool) -> Message | None:
        """The next message, or (`idle_ends`) None at a keep-alive comment."""
        deadline = time.monotonic() + within
        event, data, id_ = "message", [], None
        for line in self.lines:
            if time.monotonic() >= deadline:
                raise AssertionError("no message in time")
            if line == "":
                if data:
                    return Message(event, json.loads("\n".join(data)), id_)
                continue
            if line.startswith(":"):
                self.comments += 1
                if idle_ends:
                    return None
                continue
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "event":
                event = value
            elif name == "data":
                data.append(value)
            elif name == "id":
                id_ = int(value)
        raise EOFError("the stream ended")

    def until_idle(self, within: float = 120.0) -> list[Message]:
        """Every message until the stream's next keep-alive comment: the server had nothing
        more to send for LIVE_KEEPALIVE_SECONDS (a condition, however busy the machine;
        AssertionError if it has not come `within` seconds)."""
        deadline = time.monotonic() + within
        out = []
        while message := self._next(max(deadline - time.monotonic(), 0.1), idle_ends=True):
            out.append(message)
        return out

    def until(self, found: Any, within: float = 120.0) -> list[Message]:
        """Every message up to the first for which `found(message)` is true, that one
        included; AssertionError if it has not come `within` seconds."""
        deadline = time.monotonic() + within
        out = []
        while not out or not found(out[-1]):
            out.append(self.next(within=max(deadline - time.monotonic(), 0.1)))
        return out

    def take(self, n: int, event: str = "event") -> list[Message]:
        """The next `n` messages of kind `event` (others are skipped)."""
        out = []
        while len(out) < n:
            message = self.next()
            if message.event == event:
                out.append(message)
        return out

    def close(self) -> None:
        self.context.__exit__(None, None, None)
        self.client.close()
