"""Live streams (server-sent events) served by Django async views under an ASGI server.

A follower's connection costs no thread and no database connection while it waits: it
waits on an `asyncio.Event` of this process's `Waker`, which one PostgreSQL connection per
process wakes (LISTEN on a channel that writers NOTIFY when they commit). On SQLite (`make
run`) there is no NOTIFY: followers poll every `LIVE_POLL_SECONDS`. Reads run on a small
pool of threads (`LIVE_DB_THREADS`, each with its own database connection). The followers
of one stream are fed together (`core.live_fanout`): one read per commit and one encoding
per audience, written to all their connections by one loop. The kernel knows no app: the
channel and what is read are the caller's.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from contextvars import ContextVar
from typing import Any, TypeVar

import environ
import orjson
import psycopg
import psycopg.conninfo
from django.conf import settings
from django.contrib.auth import get_user
from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError, connection, connections
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.utils.translation import gettext
from rest_framework.authentication import get_authorization_header
from rest_framework.exceptions import AuthenticationFailed

from core.authentication import ProfileTokenAuthentication
from core.live_tickets import ticket_user
from core.metrics import stream_followers

log = logging.getLogger(__name__)
T = TypeVar("T")

KEEPALIVE = b": keep-alive\n\n"
# The last bytes of every stream when its server stops: clients reconnect (with
# Last-Event-ID) after `retry` milliseconds, to another process or this one restarted.
STOPPING = b": the server is stopping; reconnect with Last-Event-ID\nretry: 2000\n\n"

# Set when the server is told to stop (SIGTERM, SIGINT): every follower ends its stream.
_stopping = False


def _setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


# --- reads off the event loop --------------------------------------------------------------

_executor: concurrent.futures.ThreadPoolExecutor | None = None


def _pool() -> concurrent.futures.ThreadPoolExecutor:
    global _executor
    if _executor is None:
        _executor = concurrent.futures.ThreadPoolExecutor(
            max_workers=int(_setting("LIVE_DB_THREADS", 4)), thread_name_prefix="live-db"
        )
    return _executor


def _run_sync(fn: Callable[[], T]) -> T:
    """Run `fn` in a pool thread: its connection is kept (no request ends there to close
    it); one that the server dropped is closed and `fn` tried once more."""
    try:
        return fn()
    except DatabaseError:
        if connection.in_atomic_block or connection.connection is None:
            raise
        connections.close_all()
        return fn()


async def db(fn: Callable[[], T]) -> T:
    """`fn` (which uses the ORM) run on the stream readers' thread pool."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_pool(), _run_sync, fn)


_in_flight: dict[Any, asyncio.Future] = {}


async def shared(key: Any, fn: Callable[[], T]) -> T:
    """`await db(fn)`, shared by every follower asking for the same `key` while it runs:
    followers woken by one commit read the new events once per audience."""
    running = _in_flight.get(key)
    if running is None:
        running = asyncio.ensure_future(db(fn))
        _in_flight[key] = running
        running.add_done_callback(lambda _: _in_flight.pop(key, None))
    return await asyncio.shield(running)


# --- waking followers ----------------------------------------------------------------------


class Waker:
    """Wakes the followers of a key (a stream id) when a NOTIFY names it: one LISTEN
    connection per process and channel, opened on first use, reopened after a failure
    (followers are woken then, so they read again and miss nothing)."""

    def __init__(self, channel: str) -> None:
        self.channel = channel
        self.waiting: dict[str, set[asyncio.Event]] = {}
        # How many times each followed key has been woken: followers woken by the same
        # notification share a read (`shared`), never one begun before it.
        self.wakes: dict[str, int] = {}
        self.task: asyncio.Task | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.ready: asyncio.Event | None = None  # made in the loop that listens
        self.followed_in: asyncio.AbstractEventLoop | None = None  # the followers' loop

    def _ensure_listening(self) -> None:
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.loop is not loop:
            self.loop = loop
            self.ready = asyncio.Event()
            self.task = loop.create_task(self._listen())

    async def _listen(self) -> None:
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(database_conninfo(), autocommit=True)
                async with conn:
                    await conn.execute(f'LISTEN "{self.channel}"')
                    self._wake_all()  # anything committed while we were not listening
                    self.ready.set()
                    async for note in conn.notifies():
                        events = self.waiting.get(note.payload)
                        if events:
                            self.wakes[note.payload] = self.wakes.get(note.payload, 0) + 1
                            for event in events:
                                event.set()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("live: LISTEN %s failed; retrying", self.channel, exc_info=True)
            self.ready.clear()
            self._wake_all()
            await asyncio.sleep(1.0)

    def wake_everyone(self) -> None:
        """Wake every follower (each reads again, or ends its stream if the server stops)."""
        self._wake_all()

    def _wake_all(self) -> None:
        for key, events in self.waiting.items():
            self.wakes[key] = self.wakes.get(key, 0) + 1
            for event in events:
                event.set()

    async def subscribe(self, key: str) -> asyncio.Event:
        """An event set whenever `key` is notified (clear it before each read). Returns once
        the process listens, so a commit after this returns is never missed."""
        event = asyncio.Event()
        self.followed_in = asyncio.get_running_loop()
        self.waiting.setdefault(key, set()).add(event)
        if connection.vendor == "postgresql":
            self._ensure_listening()
            try:
                # Not listening after 5 s: the follower polls until the process is.
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(5.0):
                        await self.ready.wait()
            except BaseException:  # cancelled (its client gone) before following
                self.unsubscribe(key, event)
                raise
        return event

    def unsubscribe(self, key: str, event: asyncio.Event) -> None:
        events = self.waiting.get(key)
        if events is not None:
            events.discard(event)
            if not events:
                del self.waiting[key]
                self.wakes.pop(key, None)

    def wakes_of(self, key: str) -> int:
        """How many times `key`'s followers have been woken so far."""
        return self.wakes.get(key, 0)

    def listening(self) -> bool:
        return connection.vendor == "postgresql" and bool(self.ready and self.ready.is_set())


_wakers: dict[str, Waker] = {}


def waker(channel: str) -> Waker:
    if channel not in _wakers:
        _wakers[channel] = Waker(channel)
    return _wakers[channel]


def database_conninfo() -> str:
    """The default database's connection string for psycopg, from Django's settings; or
    DATABASE_DIRECT_URL's when it is set: the primary itself, for the LISTEN connection,
    which needs a session of its own that a pooler in transaction mode would not keep."""
    db_settings = (
        environ.Env.db_url_config(settings.DATABASE_DIRECT_URL)
        if settings.DATABASE_DIRECT_URL
        else connection.settings_dict
    )
    params = {
        "dbname": db_settings.get("NAME") or "",
        "user": db_settings.get("USER") or "",
        "password": db_settings.get("PASSWORD") or "",
        "host": db_settings.get("HOST") or "",
        "port": str(db_settings.get("PORT") or ""),
    }
    return psycopg.conninfo.make_conninfo(**{k: v for k, v in params.items() if v})


# --- the response --------------------------------------------------------------------------


def sse(data: Any, *, event: str | None = None, id: int | None = None) -> bytes:  # noqa: A002
    """One server-sent event: `data` as JSON on one line."""
    head = b""
    if id is not None:
        head += b"id: %d\n" % id
    if event is not None:
        head += b"event: " + event.encode() + b"\n"
    return head + b"data: " + orjson.dumps(data, default=str) + b"\n\n"


def last_event_id(request: HttpRequest) -> int | None:
    """Where a follower resumes: the `Last-Event-ID` header (a browser's EventSource sends
    it on reconnecting) or the `after` query parameter; None if neither is given.
    ValueError if the one given is not a whole number."""
    raw = request.headers.get("Last-Event-ID") or request.GET.get("after")
    if raw is None or raw == "":
        return None
    raw = raw.strip()
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 12):
        raise ValueError(raw)
    return int(raw)


def error(status: int, code: str, message: str) -> JsonResponse:
    """The API's error body; `message` in English, shown in the request's language (a
    catalogued text: config/service_messages.py)."""
    return JsonResponse({"error": {"code": code, "message": gettext(message)}}, status=status)


Read = Callable[[int], Awaitable[tuple[list[bytes], int]]]


# A read the database failed (SQLite's "table is locked" under a writer, a PostgreSQL
# fail-over) is tried again this many times, after a pause growing by one poll interval,
# before the stream ends: its client then reconnects with Last-Event-ID and loses nothing.
READ_ATTEMPTS = 5


async def _read_again_if_failed(read: Read, after: int, pause: float) -> tuple[list[bytes], int]:
    for attempt in range(1, READ_ATTEMPTS + 1):
        try:
            return await read(after)
        except DatabaseError as exc:
            if attempt == READ_ATTEMPTS:
                raise
            log.warning("live read after %s failed (%s); trying again (%s)", after, exc, attempt)
            await asyncio.sleep(pause * attempt)
    raise AssertionError("unreachable")


async def follow(*, channel: str, key: str, after: int, read: Read) -> AsyncIterator[bytes]:
    """The body of a stream: whatever `read(after)` returns (the messages
    after a version and the version they reach), again each time `key` is notified (or
    every LIVE_POLL_SECONDS without NOTIFY), with a keep-alive comment when nothing has
    been sent for LIVE_KEEPALIVE_SECONDS. Subscribes before the first read, so that nothing
    committed in between is missed."""
    wake = waker(channel)
    event = await wake.subscribe(key)
    keepalive = _setting("LIVE_KEEPALIVE_SECONDS", 15.0)
    poll = _setting("LIVE_POLL_SECONDS", 1.0)
    clock = asyncio.get_running_loop().time
    stream_followers.inc()
    try:
        sent = clock()
        while not _stopping:
            event.clear()
            messages, after = await _read_again_if_failed(read, after, poll)
            if messages:
                yield b"".join(messages)
                sent = clock()
            while True:  # until notified (or, without NOTIFY, until the next poll)
                listening = wake.listening()
                timeout = max(
                    min(keepalive if listening else poll, keepalive - (clock() - sent)), 0
                )
                try:
                    # Not `asyncio.wait_for`: on Python 3.11 it swallows a cancellation
                    # that comes as the event is set, and a dropped client's follower then
                    # ran on for ever, writing keep-alives to no one (uvicorn never
                    # stopped). `timeout` awaits in this task: a cancellation ends it.
                    async with asyncio.timeout(timeout):
                        await event.wait()
                    break
                except TimeoutError:
                    if clock() - sent >= keepalive:
                        yield KEEPALIVE
                        sent = clock()
                    if not listening:
                        break
        yield STOPPING
    finally:
        stream_followers.dec()
        wake.unsubscribe(key, event)


async def opening(request: HttpRequest) -> tuple[int, Any, JsonResponse | None]:
    """What every stream view checks first: an ASGI server, the resume point
    (`Last-Event-ID` or `?after=`, default 0) and the caller; or the refusal to answer."""
    refused = refuse_unless_asgi(request)
    if refused is not None:
        return 0, None, refused
    after, refused = resume_point(request)
    if refused is not None:
        return 0, None, refused
    user, refused = await caller(request)
    return after or 0, user, refused


# A stream request's ASGI `send` (set by core.asgi): its stream's pump writes with it
# (core.live_fanout). None: every part goes through Django's response loop.
connection_send: ContextVar[Callable[[dict], Awaitable[None]] | None] = ContextVar(
    "connection_send", default=None
)


class EventStreamResponse(StreamingHttpResponse):
    """A live stream's response, its body (bytes already) handed to Django's ASGI handler as
    it is (StreamingHttpResponse's `__aiter__` wraps it in two async generators more). A
    middleware that wraps it (sets `streaming_content`) is served through, and nothing is
    written past that middleware (`connection_send` unset)."""

    def __aiter__(self) -> AsyncIterator[bytes]:
        if self.is_async and self._iterator is self.made:
            return self._iterator
        connection_send.set(None)  # in the request's task: its body sees it
        return super().__aiter__()


def stream_response(body: AsyncIterator[bytes]) -> StreamingHttpResponse:
    response = EventStreamResponse(body, content_type="text/event-stream")
    response.made = body
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # no buffering by an nginx in front
    return response


# --- who follows ---------------------------------------------------------------------------


def authenticate(request: HttpRequest) -> Any:
    """The caller, as the API's authentication classes see it: a token in the
    `Authorization` header, or a stream ticket (`?ticket=`), else the session (a browser's
    EventSource sends the cookie). Run it with `db`. Raises AuthenticationFailed for a bad
    token or ticket."""
    ticket = request.GET.get("ticket")
    if ticket:
        return ticket_user(request, ticket)
    if get_authorization_header(request):
        found = ProfileTokenAuthentication().authenticate(request)
        if found is not None:
            return found[0]
    return get_user(request)


async def caller(request: HttpRequest) -> tuple[Any, JsonResponse | None]:
    """(the caller, None), or (None, the 401 to answer) for a bad token."""
    try:
        return await db(lambda: authenticate(request)), None
    except AuthenticationFailed as exc:
        return None, error(401, "authentication_failed", str(exc.detail))


def resume_point(request: HttpRequest) -> tuple[int | None, JsonResponse | None]:
    """(the version to resume after, or None), or (None, the 400 to answer)."""
    try:
        return last_event_id(request), None
    except ValueError:
        message = "Last-Event-ID (or after) must be a version: a whole number"
        return None, error(400, "validation_error", message)


def streams_stop() -> None:
    """End every stream of this process at its next turn, each with the STOPPING hint (a
    graceful stop: the server waits for open responses, and streams never end of
    themselves). Safe to call from a signal handler."""
    global _stopping
    _stopping = True
    for wake in list(_wakers.values()):
        loop = wake.followed_in
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(wake.wake_everyone)


def streams_stopping() -> bool:
    return _stopping


def shutdown() -> None:
    """Stop this process's readers and listeners (tests; a server's exit does as much)."""
    global _executor, _stopping
    _stopping = False
    for wake in _wakers.values():
        if wake.task is not None and wake.loop is not None and not wake.loop.is_closed():
            wake.loop.call_soon_threadsafe(wake.task.cancel)
    _wakers.clear()
    if _executor is not None:
        # One task per thread (each waits for the others), so every thread closes its own.
        threads = _executor._max_workers
        barrier = threading.Barrier(threads)

        def close() -> None:
            with contextlib.suppress(threading.BrokenBarrierError):
                barrier.wait(timeout=5)
            connections.close_all()

        for _ in range(threads):
            _executor.submit(close)
        _executor.shutdown(wait=True)
        _executor = None


def refuse_unless_asgi(request: HttpRequest) -> JsonResponse | None:
    """A 503 for a stream asked of a WSGI server (gunicorn, runserver), which would hold a
    worker for as long as the stream stays open, buffering it; None under ASGI. A browser's
    EventSource does not retry after an error status."""
    if isinstance(request, ASGIRequest):
        return None
    return error(503, "stream_unavailable", "Live streams are served by the ASGI service.")
