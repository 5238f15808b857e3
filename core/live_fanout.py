"""One stream's followers in this process served together: each batch is read, redacted,
serialised and framed once per audience, then handed to every follower of that audience.

Every followed key (a stream id) has a `Hub`: one subscription to the process's `Waker`
and one task (the pump) that, after each notification, reads what changed once (`load`,
begun after the notification), sorts the followers into audiences (who is shown the same
bytes: `audience(loaded)`, given by the app, with the version they are at) and makes each
audience's bytes once (`messages(loaded, version, first)` of one of its followers), all in
one hop to the readers' pool; then it writes those bytes to each follower's connection
itself, with the connection's ASGI `send` (`core.live.connection_send`), driven in place:
the server's `send` of a body part returns without waiting unless the connection's
transport is paused (uvicorn: `flow.drain()` first, then one `transport.write`), so one
loop writes to every follower, no task woken and no response loop run per follower. A
follower the pump cannot write to at once (its transport is paused; or no `send` was
handed over) is given the bytes in its buffer instead, which its own task writes through
Django's response, waiting for the client. Connecting, a follower reads its own catch-up
from its resume point (as many times as notifications came during it) and then joins its
audience at the version it reached.

Back-pressure: a follower whose buffer passes LIVE_FOLLOWER_BUFFER_BYTES (its client reads
too slowly, or not at all: the transport's own buffer is full first) is dropped with a
retry hint (`BEHIND`; it resumes with Last-Event-ID), never slowing the others; if its task
is still stuck writing to that client LIVE_DROP_GRACE_SECONDS later, the task is cancelled
(the server closes the connection).

The kernel knows no app: what is loaded, the audiences and the bytes are the caller's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from typing import Any, Generic, TypeVar

from django.db import DatabaseError
from django.http import StreamingHttpResponse

from core import live
from core.metrics import stream_followers

log = logging.getLogger(__name__)
T = TypeVar("T")

# The last bytes for a follower dropped because it fell behind (or whose read failed).
BEHIND = b": too far behind; reconnect with Last-Event-ID\nretry: 2000\n\n"

Messages = Callable[[Any, int, bool], tuple[list[bytes], int]]
Send = Callable[[dict], Awaitable[None]]


class Member:
    """One follower: the audience it belongs to, the version it has been sent up to (None
    while it reads its own catch-up), the bytes waiting to be written to it by its task,
    and its connection's `send` while the pump may write with it (`parked`)."""

    __slots__ = (
        "viewer", "audience", "messages", "version", "pending", "size", "ended", "wake", "task",
        "sent", "send", "parked", "written",
    )  # fmt: skip

    def __init__(
        self, viewer: Hashable, audience: Callable[[Any], Hashable], messages: Messages
    ) -> None:
        self.viewer = viewer
        self.audience = audience
        self.messages = messages
        self.version: int | None = None
        self.pending: list[bytes] = []
        self.size = 0
        self.ended: bytes | None = None  # its last bytes, once it is to end
        self.wake = asyncio.Event()
        self.task: asyncio.Task | None = None
        self.sent = 0.0  # when it was last written to (the loop's clock)
        self.send: Send | None = None
        self.parked = False  # its task waits, its buffer is empty: the pump writes itself
        self.written = 0  # batches the pump wrote itself (tests)

    def write(self, data: bytes) -> bool:
        """Write `data` to the connection now if the server takes it without waiting; False
        (nothing written) if the follower's task is to write it (it is not parked, or the
        connection's transport is paused: its client reads too slowly)."""
        if not self.parked or self.pending or self.ended is not None or self.send is None:
            return False
        step = self.send({"type": "http.response.body", "body": data, "more_body": True})
        try:
            step.send(None)  # the send runs in place, to its end unless it must wait
        except StopIteration:
            self.written += 1
            return True
        except Exception:  # its task's own send meets the same and ends the response
            log.warning("live: writing to a follower failed", exc_info=True)
            self.send = None
            return False
        # It waits for the transport to drain before writing anything (uvicorn's flow
        # control): closed there, and its task writes it, waiting.
        step.close()
        return False

    def push(self, data: bytes, reached: int, limit: int) -> bool:
        """Append a batch; False if that puts it over `limit` (it is then to be dropped)."""
        self.version = reached
        if data:
            self.pending.append(data)
            self.size += len(data)
            self.wake.set()
        return self.size <= limit

    def end(self, last: bytes, *, keep_pending: bool) -> None:
        if not keep_pending:
            self.pending.clear()
            self.size = 0
        if self.ended is None:
            self.ended = last
        self.wake.set()


class Hub(Generic[T]):
    """The followers of one key in this process, and the task that feeds them."""

    def __init__(self, channel: str, key: str, load: Callable[[], T]) -> None:
        self.channel, self.key, self.load = channel, key, load
        self.waker = live.waker(channel)
        self.loop = asyncio.get_running_loop()
        self.members: set[Member] = set()
        self.subscribed = asyncio.ensure_future(self.waker.subscribe(key))
        self.pump = self.loop.create_task(self._pump())

    def join(self, member: Member) -> None:
        self.members.add(member)

    def leave(self, member: Member) -> None:
        self.members.discard(member)
        if not self.members:
            if _hubs.get((self.channel, self.key)) is self:
                del _hubs[(self.channel, self.key)]
            self.pump.cancel()
            if not self.subscribed.done():
                self.subscribed.cancel()  # the waker unsubscribes a cancelled subscriber
            elif not self.subscribed.cancelled() and self.subscribed.exception() is None:
                self.waker.unsubscribe(self.key, self.subscribed.result())

    def drop(self, member: Member, last: bytes) -> None:
        """End `member` now (its buffer is full, or its read failed) and, if its task is
        still stuck writing to its client after the grace period, cancel that task."""
        self.members.discard(member)
        member.end(last, keep_pending=False)
        task = member.task
        if task is not None:
            grace = live._setting("LIVE_DROP_GRACE_SECONDS", 5.0)
            self.loop.call_later(grace, lambda: None if task.done() else task.cancel())

    async def _pump(self) -> None:
        event = await asyncio.shield(self.subscribed)
        poll = live._setting("LIVE_POLL_SECONDS", 1.0)
        keepalive = live._setting("LIVE_KEEPALIVE_SECONDS", 15.0)
        while True:
            if not event.is_set():
                # Without NOTIFY (SQLite, or not listening yet): read every `poll` seconds.
                # The keep-alives are the pump's too: a follower waits with no timer of its
                # own (one timer per follower per batch was a good part of its cost).
                timeout = keepalive / 3 if self.waker.listening() else min(poll, keepalive / 3)
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(timeout):
                        await event.wait()
            self._keep_alive(keepalive)
            if not event.is_set() and self.waker.listening():
                continue
            event.clear()
            if live.streams_stopping():
                for member in list(self.members):
                    member.end(live.STOPPING, keep_pending=True)
                return
            if any(m.version is not None for m in self.members):
                await self._feed()

    def _keep_alive(self, keepalive: float) -> None:
        """A keep-alive comment for each joined follower sent nothing for `keepalive` s."""
        now = self.loop.time()
        idle_since = now - keepalive
        for member in list(self.members):
            if member.version is not None and member.sent <= idle_since and not member.pending:
                member.sent = now  # due again `keepalive` s from now
                if not member.write(live.KEEPALIVE):
                    member.pending.append(live.KEEPALIVE)
                    member.wake.set()

    async def _feed(self) -> None:
        """One read, each audience's bytes made once, every joined follower's buffer fed."""
        try:
            loaded = await live.db(self.load)
            # Followers that joined during the read are at versions past it: nothing new.
            joined = [m for m in self.members if m.version is not None]
            batches = await live.db(lambda: _made(loaded, joined))
        except Exception as exc:  # the followers reconnect and read again
            if not isinstance(exc, DatabaseError):
                log.exception("live: feeding the followers of %s failed", self.key)
            for member in [m for m in self.members if m.version is not None]:
                self.drop(member, BEHIND)
            return
        self.deliver(batches)

    def deliver(self, batches: list[tuple[Member, bytes, int]]) -> None:
        """Each follower's batch written to its connection, or to its buffer (see `write`)."""
        limit = int(live._setting("LIVE_FOLLOWER_BUFFER_BYTES", 1 << 20))
        now = self.loop.time()
        for member, data, reached in batches:
            if member not in self.members:
                continue
            if data and member.write(data):
                member.version, member.sent = reached, now
            elif not member.push(data, reached, limit):
                log.info("live: a follower of %s fell behind; dropped", self.key)
                self.drop(member, BEHIND)


def _made(loaded: Any, members: list[Member]) -> list[tuple[Member, bytes, int]]:
    """Each member's batch; made once per audience and version (on the readers' pool), the
    audience asked once per viewer (with 5,000 anonymous followers, once)."""
    made: dict[tuple[Hashable, int], tuple[bytes, int]] = {}
    audiences: dict[Hashable, Hashable] = {}
    out = []
    for member in members:
        version = member.version
        assert version is not None
        audience = audiences.get(member.viewer, audiences)
        if audience is audiences:
            audience = audiences[member.viewer] = member.audience(loaded)
        key = (audience, version)
        batch = made.get(key)
        if batch is None:
            messages, reached = member.messages(loaded, version, False)
            batch = made[key] = (b"".join(messages), reached)
        out.append((member, *batch))
    return out


_hubs: dict[tuple[str, str], Hub] = {}


def _hub(channel: str, key: str, load: Callable[[], Any]) -> Hub:
    hub = _hubs.get((channel, key))
    if hub is None or hub.loop is not asyncio.get_running_loop() or hub.pump.done():
        hub = _hubs[(channel, key)] = Hub(channel, key, load)
    return hub


def followers() -> int:
    """How many followers this process serves (tests, metrics)."""
    return sum(len(hub.members) for hub in list(_hubs.values()))


async def _follow(
    channel: str, key: str, after: int, load: Callable[[], T], member: Member
) -> AsyncIterator[bytes]:
    hub = _hub(channel, key, load)
    hub.join(member)
    member.task = asyncio.current_task()
    member.send = live.connection_send.get()  # in this request's task, after `__aiter__`
    poll = live._setting("LIVE_POLL_SECONDS", 1.0)
    clock = asyncio.get_running_loop().time
    first = True

    async def catch_up(version: int) -> tuple[list[bytes], int]:
        nonlocal first
        on_connecting, first = first, False
        loaded = await live.db(load)
        return await live.db(lambda: member.messages(loaded, version, on_connecting))

    stream_followers.inc()
    try:
        # Subscribed (and listening) before the first read: no commit is missed.
        await asyncio.shield(hub.subscribed)
        version = after
        while member.ended is None and not live.streams_stopping():
            woken = hub.waker.wakes_of(key)
            messages, version = await live._read_again_if_failed(catch_up, version, poll)
            if messages:
                yield b"".join(messages)
            if hub.waker.wakes_of(key) == woken:
                break  # nothing came during the read: the pump carries it from here
        if member.ended is None and not live.streams_stopping():
            member.version = version  # joined: fed from the next notification on
        elif member.ended is None:
            member.ended = live.STOPPING
        member.sent = clock()
        while True:
            if member.pending:
                data, member.pending, member.size = b"".join(member.pending), [], 0
                yield data
                member.sent = clock()
                continue
            if member.ended is not None:
                yield member.ended
                return
            member.wake.clear()
            member.parked = True  # the pump writes to its connection itself
            try:
                await member.wake.wait()  # given bytes to write (it could not), or ended
            finally:
                member.parked = False
    finally:
        stream_followers.dec()
        hub.leave(member)


def follow_loaded(
    *,
    channel: str,
    key: str,
    after: int,
    load: Callable[[], T],
    viewer: Hashable,
    audience: Callable[[T], Hashable],
    messages: Callable[[T, int, bool], tuple[list[bytes], int]],
) -> StreamingHttpResponse:
    """The streaming response of one follower of `key`: its catch-up from `after`, then
    after each notification what `messages(loaded, version, first)` makes of one `load()`
    (which must depend on `key` only) for its `audience(loaded)`: followers whose audience
    is equal are sent the same bytes, made once, so it must name everything the messages
    depend on (the app's privacy rests on it). `viewer` names who follows: followers with
    equal viewers are of the same audience (it is asked of one of them per `load()`)."""
    member = Member(viewer, audience, messages)
    return live.stream_response(_follow(channel, key, after, load, member))
