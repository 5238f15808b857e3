"""The browser fixture of the pages' browser tests (marked `browser`: the desk's, the
replay's): Debian's headless chromium, skipped with the reason when it is not installed."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connections

from tests.web.desk.helpers import CHROMIUM, CHROMIUM_ARGS


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no chromium at {CHROMIUM}: apt-get install -y chromium (.ci/run does)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
    # Playwright's sync API keeps an event loop in this thread; the test's own ORM calls
    # (set-up and checks) are plain synchronous code all the same.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
        # The test ran in the context Playwright's sync API keeps (Django's connections are
        # per context): its connection is closed here, or it outlives the test database.
        connections.close_all()
