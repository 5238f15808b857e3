"""The browser fixture of the pages' browser tests (marked `browser`: the desk's, the
replay's): Debian's headless chromium, skipped with the reason when it is not installed."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connections

from tests.web.desk.helpers import CHROMIUM, CHROMIUM_ARGS

# How long any wait of a page (a selector, a function, a navigation) may take before it
# fails: the bound of a wait for a condition, generous for a busy machine, where a page
# served by a server thread of the test process may take many seconds to come.
PAGE_TIMEOUT_MS = 90_000


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no chromium at {CHROMIUM}: apt-get install -y chromium (.ci/run does)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
    # Playwright's sync API keeps an event loop in this thread; the test's own ORM calls
    # (set-up and checks) are plain synchronous code all the same.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    for cls, make in ((sync_api.Browser, "new_page"), (sync_api.Browser, "new_context"),
                      (sync_api.BrowserContext, "new_page")):  # fmt: skip
        monkeypatch.setattr(cls, make, _patient(getattr(cls, make)))
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
        # The test ran in the context Playwright's sync API keeps (Django's connections are
        # per context): its connection is closed here, or it outlives the test database.
        connections.close_all()


def _patient(make: Any) -> Any:
    """`make` (a browser's or context's new_page or new_context), whose page or context
    waits up to PAGE_TIMEOUT_MS (Playwright's default is 30 s)."""

    def made(*args: Any, **kwargs: Any) -> Any:
        thing = make(*args, **kwargs)
        thing.set_default_timeout(PAGE_TIMEOUT_MS)
        thing.set_default_navigation_timeout(PAGE_TIMEOUT_MS)
        return thing

    return made
