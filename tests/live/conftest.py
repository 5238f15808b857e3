"""Live-stream tests run the app under uvicorn and commit for real (the server's threads
read with their own connections): transactional database tests only."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.live.helpers import asgi_server


@pytest.fixture
def server(transactional_db, settings) -> Iterator[str]:
    settings.LIVE_KEEPALIVE_SECONDS = 0.5
    settings.LIVE_POLL_SECONDS = 0.2
    with asgi_server() as url:
        yield url
