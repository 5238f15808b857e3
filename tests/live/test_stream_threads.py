"""Issue 41: a follower holds no thread. Each stream request ran its synchronous part in a
thread of its own (asgiref's per-request executor) that lived as long as the stream: 1,000
followers were 1,000 OS threads, each joined at the stream's end (a graceful stop of 5,000
followers took 15 s). As served (config.asgi), stream requests share one."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest
from django.db import connection

from core import live
from tests.reliability.helpers import asgi_process
from tests.reliability.test_stream_flood import _public_tournament, _request

FOLLOWERS = 300


def _threads(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    raise AssertionError("no Threads line")


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_followers_hold_no_thread_each() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the server process reads the test database: PostgreSQL only")
    tournament = _public_tournament()
    with asgi_process(cache="threads", graceful=30) as served:
        server, port = served.process, served.port

        async def scenario() -> tuple[int, bytes]:
            gate = asyncio.Semaphore(50)
            streams = []

            async def one() -> None:
                async with gate:
                    reader, writer = await asyncio.open_connection("127.0.0.1", port)
                    writer.write(_request(port, tournament))
                    await writer.drain()
                    assert b" 200 " in await asyncio.wait_for(reader.readline(), 120)
                    streams.append((reader, writer))

            await asyncio.gather(*(one() for _ in range(FOLLOWERS)))
            threads = _threads(server.pid)  # every follower connected and answered
            server.send_signal(signal.SIGTERM)
            tail = await asyncio.wait_for(streams[0][0].read(), 60)
            for _, writer in streams:
                writer.close()
            return threads, tail

        threads, tail = asyncio.run(scenario())
        server.wait(60)
    output = served.output
    # The loop, the streams' one sync thread, the readers' pool, the LISTEN connection's,
    # asyncio's default executor: a few dozen at most, not one per follower.
    assert threads < FOLLOWERS // 3, (threads, output)
    assert live.STOPPING in tail and tail.endswith(b"0\r\n\r\n"), tail[-200:]


async def _parts() -> object:
    yield b"id: 1\n\n"
    yield b"id: 2\n\n"


def test_a_middleware_wrapping_the_stream_body_is_served_through() -> None:
    """The stream's response hands Django's handler its body as it is, unless a middleware
    replaced the body (`streaming_content = ...`): then that is what is served."""
    response = live.stream_response(_parts())  # type: ignore[arg-type]
    assert aiter(response) is response._iterator  # no wrapper per message

    async def upper(parts: object) -> object:
        async for part in parts:  # type: ignore[attr-defined]
            yield part.upper()

    wrapped = live.stream_response(_parts())  # type: ignore[arg-type]
    wrapped.streaming_content = upper(wrapped.streaming_content)

    async def read(response: object) -> list[bytes]:
        return [part async for part in aiter(response)]  # type: ignore[call-overload]

    assert asyncio.run(read(response)) == [b"id: 1\n\n", b"id: 2\n\n"]
    assert asyncio.run(read(wrapped)) == [b"ID: 1\n\n", b"ID: 2\n\n"]


def test_nothing_is_written_past_a_middleware_that_wraps_the_stream_body() -> None:
    """The pump writes a follower's bytes with its connection's `send` only when the body
    is served as it is: a middleware's wrapper of the body would be bypassed."""

    async def send(message: dict) -> None:
        raise AssertionError("not to be called")

    async def handed(wrap: bool) -> object:
        live.connection_send.set(send)
        response = live.stream_response(_parts())  # type: ignore[arg-type]
        if wrap:
            response.streaming_content = (part async for part in response.streaming_content)
        aiter(response)  # as Django's handler begins the body, in the request's task
        return live.connection_send.get()

    assert asyncio.run(handed(wrap=False)) is send
    assert asyncio.run(handed(wrap=True)) is None
