"""The ASGI application as served: Django's, plus the lifespan protocol, whose start-up is
where a graceful stop is hooked in.

A live stream never ends of itself, and an ASGI server's graceful stop waits for every open
response: uvicorn told to stop (SIGTERM) waited for ever, or until its graceful timeout
cancelled hundreds of followers. At start-up this chains the server's own handler of
SIGTERM and SIGINT with `core.live.streams_stop`: every stream then ends at once with a
retry hint (clients reconnect with Last-Event-ID, losing nothing), and the server stops as
soon as the last response is sent. Servers that do not speak lifespan (`--lifespan off`)
serve the same application without the hook.

A live stream's request also runs its synchronous part (middleware, the view) through
asgiref's `sync_to_async`, which by default gives each request a thread of its own for the
request's whole life: a follower held an idle OS thread for as long as it followed (5,000
followers, 5,000 threads), and each was joined at the stream's end (a graceful stop of
5,000 followers took 15 s). Stream requests here share one thread-sensitive executor
instead (`ThreadSensitiveContext(executor=...)`): one worker thread runs every stream
request's synchronous part in turn, as Django does for all sync code when no context is
set; the streams' reads run on `core.live`'s own pool. And a stream request's `send` is
handed to its body (`core.live.connection_send`): once a follower has caught up, the pump
of its stream writes each batch to every follower's connection itself (`core.live_fanout`),
with no task woken and no Django response loop run per follower and message.
"""

from __future__ import annotations

import inspect
import logging
import signal
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext

from core import live

log = logging.getLogger(__name__)

ASGIApp = Callable[[dict, Callable[[], Awaitable[dict]], Callable[[dict], Awaitable[None]]], Any]
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
STREAM_PATH_END = "/stream/"  # games.urls and tournaments.urls: the live streams
_stream_thread: ThreadPoolExecutor | None = None


def _streams_executor() -> ThreadPoolExecutor:
    global _stream_thread
    if _stream_thread is None:
        _stream_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="streams-sync")
    return _stream_thread


def _writes_in_place(send: Any) -> bool:
    """Whether the pump may drive `send` in place (core.live_fanout): uvicorn's `send` of a
    body part waits, if it must (flow control), before it writes anything, so a send that
    would wait is abandoned with nothing written and its follower's task writes instead."""
    server = type(getattr(send, "__self__", None)).__module__
    return inspect.iscoroutinefunction(send) and server.startswith("uvicorn.protocols.http.")


def _chain_stop_signals() -> None:
    """Put `streams_stop` before the server's own handler of each stop signal."""
    for sig in STOP_SIGNALS:
        previous = signal.getsignal(sig)
        if not callable(previous):
            continue  # the server handles it on its loop, or not at all: left alone

        def handler(signum: int, frame: Any, previous: Callable[..., Any] = previous) -> None:
            live.streams_stop()
            previous(signum, frame)

        try:
            signal.signal(sig, handler)
        except ValueError:  # not the main thread (a server run in a thread, as in tests)
            return


def with_graceful_stop(app: ASGIApp) -> ASGIApp:
    """`app` with the lifespan protocol answered (Django's handler refuses it)."""

    async def application(scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].endswith(STREAM_PATH_END):
            if _writes_in_place(send):  # in this request's task (and those it makes)
                live.connection_send.set(send)
            async with ThreadSensitiveContext(executor=_streams_executor()):
                await app(scope, receive, send)
            return
        if scope["type"] != "lifespan":
            await app(scope, receive, send)
            return
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                _chain_stop_signals()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                live.streams_stop()
                await send({"type": "lifespan.shutdown.complete"})
                return

    return application
