"""Issue 32, item 10: after a flood of stream connections dropped by their clients, no
follower is left behind, and a stopped server stops (each open stream ends with a retry
hint) instead of waiting for ever at "Waiting for background tasks to complete"."""

from __future__ import annotations

import asyncio
import io
import signal
import socket
import struct
import time
from collections import Counter

import pytest
from django.db import connection

from core import live, live_fanout
from tests.live.helpers import asgi_server
from tests.reliability.helpers import asgi_process, make_organiser, wait_for
from tournaments import services

DROPPED = 1000


def _public_tournament() -> int:
    organiser = make_organiser("floodorg")
    tournament = services.tournament_create(
        name="Flood", format="swiss", rounds=3, created_by=organiser, is_public=True
    )
    return tournament.pk


def _request(port: int, tournament: int) -> bytes:
    return (
        f"GET /api/tournaments/{tournament}/stream/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Accept: text/event-stream\r\n\r\n"
    ).encode()


async def _open_and_drop(port: int, tournament: int, n: int) -> int:
    """`n` followers that connect, see the stream answer 200, and drop the connection at
    once (a reset, as a phone leaving the network does): how many were answered 200."""
    gate = asyncio.Semaphore(100)

    async def one() -> bool:
        async with gate:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(_request(port, tournament))
            await writer.drain()
            status = await asyncio.wait_for(reader.readline(), 120)
            sock = writer.get_extra_info("socket")
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            writer.transport.abort()
            return b" 200 " in status

    return sum(await asyncio.gather(*(one() for _ in range(n))))


def _followers_subscribed() -> int:
    """Followers still served, and subscriptions still held (a hub's, a table stream's)."""
    wakers = list(live._wakers.values())
    subscribed = sum(len(events) for w in wakers for events in list(w.waiting.values()))
    return subscribed + live_fanout.followers()


REQUEST_TASKS = ("run_asgi", "process_request", "listen_for_disconnect", "_pump")


def _request_tasks() -> int:
    """The server loop's tasks that serve a request (uvicorn's, Django's) or feed one."""
    loops = {w.followed_in for w in live._wakers.values() if w.followed_in is not None}
    return sum(
        1
        for loop in loops
        for task in list(asyncio.all_tasks(loop))
        if task.get_coro().__qualname__.rsplit(".", 1)[-1] in REQUEST_TASKS
    )


def _server_tasks() -> str:
    """The server loop's tasks, their stacks counted (what a follower left behind waits on)."""
    loops = {w.followed_in for w in live._wakers.values() if w.followed_in is not None}
    stacks: Counter[str] = Counter()
    for loop in loops:
        for task in list(asyncio.all_tasks(loop)):
            out = io.StringIO()
            task.print_stack(limit=10, file=out)
            stacks[out.getvalue()] += 1
    return "\n".join(f"{n} x {stack}" for stack, n in stacks.most_common(5))


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_dropped_followers_leave_no_task(settings) -> None:
    """Every follower whose client dropped is gone within seconds (on Python 3.11,
    `asyncio.wait_for` swallowed a cancellation coming as the follower was woken, and the
    follower then wrote keep-alives to no one for ever)."""
    settings.LIVE_KEEPALIVE_SECONDS = 0.5
    settings.LIVE_POLL_SECONDS = 0.2
    tournament = _public_tournament()
    with asgi_server() as url:
        port = int(url.rsplit(":", 1)[1])
        answered = asyncio.run(_open_and_drop(port, tournament, DROPPED))
        assert answered == DROPPED
        try:
            wait_for("every dropped follower to end", lambda: _followers_subscribed() == 0, 60)
            wait_for("every request task to end", lambda: _request_tasks() == 0, 60)
        except AssertionError:
            left = f"{_followers_subscribed()} followers, {_request_tasks()} request tasks"
            raise AssertionError(f"{left} left:\n{_server_tasks()}") from None


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_stopped_server_ends_its_streams_and_stops() -> None:
    """uvicorn as served (a process of its own, SIGTERM): after 1,000 dropped followers and with
    20 still following, it stops well within its graceful timeout, cancels nothing, and each
    open stream's last bytes are the retry hint."""
    if connection.vendor != "postgresql":
        pytest.skip("the server process reads the test database: PostgreSQL only")
    tournament = _public_tournament()
    graceful = 60
    with asgi_process(cache="flood", graceful=graceful, LIVE_KEEPALIVE_SECONDS="15") as served:
        server, port = served.process, served.port

        async def scenario() -> tuple[list[bytes], float]:
            followers = []
            for _ in range(20):
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(_request(port, tournament))
                await writer.drain()
                assert b" 200 " in await asyncio.wait_for(reader.readline(), 120)
                followers.append((reader, writer))
            assert await _open_and_drop(port, tournament, DROPPED) == DROPPED
            started = time.monotonic()
            server.send_signal(signal.SIGTERM)
            tails = []
            for reader, writer in followers:
                tails.append(await asyncio.wait_for(reader.read(), graceful))
                writer.close()
            return tails, started

        tails, started = asyncio.run(scenario())
        server.wait(graceful)
        stopped_in = time.monotonic() - started
    output = served.output
    assert server.returncode in (0, -signal.SIGTERM), output  # uvicorn re-raises the signal
    assert stopped_in < graceful / 2, (stopped_in, output)
    assert "Cancel" not in output, output  # nothing was left for the timeout to cancel
    for tail in tails:
        assert b"retry: " in tail and tail.endswith(b"0\r\n\r\n"), tail[-200:]
