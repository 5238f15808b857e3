"""Issue 38: in Chromium, the manual served by the app (as `make run` serves it) loads,
searches and shows its pages with no request leaving 127.0.0.1: a club without internet
has its manual. Screenshots for a person to look at: tests/artifacts/screenshots/."""

from __future__ import annotations

import pytest

from tests.live.helpers import asgi_server
from tests.web.desk.helpers import shoot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_manual_loads_and_searches_offline(served_manual, browser):
    with asgi_server(static=True) as base:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        requests: list[str] = []
        context.on("request", lambda request: requests.append(request.url))
        page = context.new_page()
        page.goto(f"{base}/docs/")
        page.wait_for_selector("text=This manual has a part for each of its readers")
        shoot(page, "docs-home", full_page=False)
        page.goto(f"{base}/docs/operators/settings/")
        page.wait_for_selector("#setting-LOGIN_LOCKOUT_BY")
        shoot(page, "docs-settings", full_page=False)
        # Search: Material's bundled worker and the site's own index.
        page.fill("input[data-md-component=search-query]", "lockout")
        page.wait_for_selector(".md-search-result__item")
        shoot(page, "docs-search", full_page=False)
        page.goto(f"{base}/help/")
        page.wait_for_selector("#table")
        context.close()
    assert len(requests) > 10
    outside = [url for url in requests if not url.startswith(f"{base}/")]
    assert outside == [], outside


def test_the_players_help_reads_right_to_left_in_persian(browser):
    with asgi_server(static=True) as base:
        context = browser.new_context(
            viewport={"width": 390, "height": 844},
            locale="fa",
            extra_http_headers={"Accept-Language": "fa"},
        )
        page = context.new_page()
        page.goto(f"{base}/help/")
        page.wait_for_selector("#table")
        assert page.get_attribute("html", "dir") == "rtl"
        assert page.locator("h1").inner_text() == "راهنمای بازیکنان"
        shoot(page, "help-players-fa")
        context.close()
