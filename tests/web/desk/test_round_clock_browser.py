"""The round page's clock in a real browser (Debian's headless chromium): "Start the
clock" at a phone's 390 px and a laptop's 1280 px, then "Clock started at HH:MM" in the
tournament's zone, and the round page printed on A4 (no button). Screenshots go to
tests/artifacts/screenshots/ for a person to look at. Run alone: pytest -m browser."""

from __future__ import annotations

from zoneinfo import ZoneInfo

import pytest

from tests.web.desk.helpers import SCREENSHOTS, no_sideways_scroll, organiser, shoot, started
from tournaments.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _signed_in(browser, base: str, viewport: dict) -> object:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(f"{base}/desk/")
    page.fill("#id_username", "td")
    page.fill("#id_password", "pw-desk-123")
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/desk/")
    return page


@pytest.mark.parametrize(("name", "width"), [("phone", 390), ("laptop", 1280)])
def test_the_director_starts_the_round_clock(live_server, browser, name, width):
    user = organiser("td")
    tournament = started(user, players=6, time_zone="Europe/Bucharest")
    page = _signed_in(browser, live_server.url, {"width": width, "height": 900})
    page.goto(f"{live_server.url}/desk/{tournament.pk}/rounds/1/")
    assert "when the round was paired" in page.locator("#round-clock").inner_text()
    button = page.get_by_role("button", name="Start the clock")
    assert button.is_visible()
    assert no_sideways_scroll(page)
    shoot(page, f"round-clock-{name}-before")
    button.click()
    page.wait_for_selector("text=Clock started at")
    page.get_by_role("button", name="Start the clock").wait_for(state="detached")
    row = Round.objects.get(tournament=tournament, number=1)
    local = row.clock_started_at.astimezone(ZoneInfo("Europe/Bucharest")).strftime("%H:%M")
    assert f"Clock started at {local}" in page.locator("#round-clock").inner_text()
    assert no_sideways_scroll(page)
    shoot(page, f"round-clock-{name}-started")
    if name == "laptop":
        page.emulate_media(media="print")
        shoot(page, "round-clock-print")
        page.pdf(path=str(SCREENSHOTS / "round-clock.pdf"), format="A4")
    page.context.close()
