"""core.live_fanout without an app: followers of one key fed together, one encoding per
audience, and back-pressure (a follower whose client stops reading is dropped, never
slowing the others)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from core import live, live_fanout

pytestmark = pytest.mark.django_db(transaction=True)  # the waker LISTENs on PostgreSQL

KEY = "fanout-test"
CHANNEL = "fanout_test"


class Stream:
    """A stream of numbered 1 KB messages; counts the encodings it makes."""

    def __init__(self) -> None:
        self.head = 0
        self.made = 0

    def load(self) -> int:
        return self.head

    def messages(self, head: int, version: int, first: bool) -> tuple[list[bytes], int]:
        self.made += 1
        out = [b"id: %d\ndata: %s\n\n" % (v, b"x" * 1000) for v in range(version + 1, head + 1)]
        return out, max(head, version)


def _follower(stream: Stream, audience: str) -> AsyncIterator[bytes]:
    member = live_fanout.Member(audience, lambda _: audience, stream.messages)
    return live_fanout._follow(CHANNEL, KEY, 0, stream.load, member)


async def _wait(what: str, check, within: float = 30.0) -> None:
    async with asyncio.timeout(within):
        while not check():
            await asyncio.sleep(0.01)


def _ids(chunks: list[bytes]) -> list[int]:
    return [int(line[4:]) for c in chunks for line in c.split(b"\n") if line.startswith(b"id: ")]


def test_a_stalled_follower_is_dropped_and_the_others_get_every_message(settings) -> None:
    settings.LIVE_FOLLOWER_BUFFER_BYTES = 8_000
    settings.LIVE_DROP_GRACE_SECONDS = 0.2
    settings.LIVE_KEEPALIVE_SECONDS = 60
    stream = Stream()

    async def scenario() -> None:
        got: dict[str, list[bytes]] = {"a": [], "b": []}
        stuck = asyncio.Event()  # never set: a write to a client that does not read

        async def reading(name: str) -> None:
            async for chunk in _follower(stream, "public"):
                got[name].append(chunk)

        async def stalled() -> None:
            async for _ in _follower(stream, "public"):
                await stuck.wait()

        readers = [asyncio.create_task(reading("a")), asyncio.create_task(reading("b"))]
        slow = asyncio.create_task(stalled())
        hub = None
        await _wait("three followers", lambda: live_fanout.followers() == 3)
        hub = live_fanout._hubs[(CHANNEL, KEY)]
        await _wait("all joined", lambda: all(m.version == 0 for m in hub.members))
        wake = live.waker(CHANNEL)
        for n in range(1, 31):
            stream.head = n
            made = stream.made
            wake.wake_everyone()
            await _wait(f"message {n}", lambda n=n: all(_ids(c)[-1:] == [n] for c in got.values()))
            # One encoding for the audience (the followers share it), however many follow.
            assert stream.made == made + 1
        assert _ids(got["a"]) == _ids(got["b"]) == list(range(1, 31))
        assert live_fanout.followers() == 2, "the stalled follower was never dropped"
        await _wait("the stalled follower's task to be cancelled", slow.done)
        assert slow.cancelled()
        for task in readers:
            task.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
        await _wait("every follower gone", lambda: live_fanout.followers() == 0)
        assert not hub.members and hub.pump.done()

    asyncio.run(scenario())
    live.shutdown()


def test_a_dropped_follower_that_reads_again_gets_the_retry_hint_last(settings) -> None:
    settings.LIVE_FOLLOWER_BUFFER_BYTES = 3_000
    settings.LIVE_DROP_GRACE_SECONDS = 60
    stream = Stream()

    async def scenario() -> list[bytes]:
        follower = _follower(stream, "public")
        first = asyncio.create_task(anext(follower))  # runs until its first message
        await _wait("joined", lambda: live_fanout.followers() == 1)
        hub = live_fanout._hubs[(CHANNEL, KEY)]
        await _wait("joined at 0", lambda: all(m.version == 0 for m in hub.members))
        for n in range(1, 6):  # its first message taken, then never read: 4 KB pending
            stream.head = n
            live.waker(CHANNEL).wake_everyone()
            await _wait(
                f"fed {n}", lambda n=n: not hub.members or hub.members.copy().pop().version == n
            )
        await _wait("dropped", lambda: live_fanout.followers() == 0)
        return [await first] + [chunk async for chunk in follower]

    rest = asyncio.run(scenario())
    live.shutdown()
    assert _ids(rest[:1]) == [1] and rest[1:] == [live_fanout.BEHIND]
