"""The home page at phone width (390 px) in headless chromium: its tables scroll inside
their own box, the page itself does not. Screenshot: tests/artifacts/screenshots/."""

import datetime as dt

import pytest

from tests.web.desk.helpers import no_sideways_scroll, organiser, shoot, started

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_home_page_fits_a_phone(live_server, browser):
    at = dt.datetime(2026, 12, 8, 18, 30, tzinfo=dt.UTC)
    started(organiser("td"), players=4, starts_at=at)
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    page = context.new_page()
    page.goto(f"{live_server.url}/")
    shoot(page, "phone-home")
    assert "19:30 CET (Berlin)" in page.content()
    assert no_sideways_scroll(page), "the home page is wider than 390 px"
    context.close()
