"""A live stream's read that the database fails (SQLite's "table is locked" while a test or
`make run` writes; a PostgreSQL fail-over) is tried again before the stream gives up."""

import asyncio

import pytest
from django.db import OperationalError

from core import live


def _flaky(failures: int):
    calls = []

    async def read(after: int):
        calls.append(after)
        if len(calls) <= failures:
            raise OperationalError("database table is locked: eventstore_event")
        return [b"data: x\n\n"], after + 1

    return read, calls


def test_a_failed_read_is_tried_again_and_the_stream_goes_on():
    read, calls = _flaky(failures=2)
    messages, after = asyncio.run(live._read_again_if_failed(read, 7, 0.001))
    assert (messages, after) == ([b"data: x\n\n"], 8)
    assert calls == [7, 7, 7]


def test_a_read_that_keeps_failing_ends_the_stream_after_the_last_attempt():
    read, calls = _flaky(failures=live.READ_ATTEMPTS)
    with pytest.raises(OperationalError):
        asyncio.run(live._read_again_if_failed(read, 3, 0.001))
    assert len(calls) == live.READ_ATTEMPTS
