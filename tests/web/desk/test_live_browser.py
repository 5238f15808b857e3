"""Live pages in a real browser (Debian's headless chromium): the public tournament page
changes without a reload when a result is recorded, through the fallback poll under
Django's live server (a WSGI server: the stream answers 503) and through the stream itself
under uvicorn; the desk's round page too. Screenshots at 390 and 1920 px go to
tests/artifacts/screenshots/. Run alone: pytest -m browser."""

import pytest

from games.hand_entries import HandEntry
from games.services import match_record_hand
from tests.web.desk.helpers import (
    no_sideways_scroll,
    organiser,
    shoot,
    started,
)
from tournaments.models import Pairing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHORT = {"game_target": 10, "games": 1}  # one gin wins the match


def _gin(by, tournament, table: int = 1) -> None:
    match = Pairing.objects.get(round__tournament=tournament, round__number=1, table=table).match
    match_record_hand(
        match_id=match.pk,
        by=by,
        hand=HandEntry(
            knocker=match.player1.pk, knocker_deadwood=0, defender_deadwood=30, gin=True
        ),
    )


def _mark(page) -> None:
    """A marker a reload would wipe out."""
    page.evaluate("window.__notReloaded = true")


def _not_reloaded(page) -> bool:
    return page.evaluate("window.__notReloaded === true")


def test_the_public_page_polls_when_the_stream_is_unavailable(live_server, browser, settings):
    settings.WEB_LIVE_POLL_SECONDS = 1
    td = organiser("td")
    tournament = started(td, players=4, ruleset=SHORT)
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    # Django's live server is WSGI: the stream answers 503 at once, the page polls instead.
    page.wait_for_selector("[data-live-indicator][data-state=polling]")
    assert "Updates every 1 s" in page.inner_text("[data-live-indicator]")
    assert page.locator("#tournament-live td .score:text-is('1–0')").count() == 0
    _mark(page)
    _gin(td, tournament)
    page.wait_for_selector("#tournament-live td .score:text-is('1–0')")
    assert _not_reloaded(page)
    standings = page.locator("#tournament-live table").first.inner_text()
    assert "No results yet" not in standings  # the standings came with the result
    shoot(page, "live-public-tournament-polling-1920", full_page=False)
    assert no_sideways_scroll(page)


def test_the_public_page_and_the_desk_follow_the_stream_under_uvicorn(asgi, browser, settings):
    settings.WEB_LIVE_POLL_SECONDS = 600  # were it polling, the test would time out
    td = organiser("td")
    tournament = started(td, players=4, ruleset=SHORT)
    public = browser.new_page(viewport={"width": 390, "height": 844})
    public.goto(f"{asgi}/tournaments/{tournament.pk}/")
    public.wait_for_selector("[data-live-indicator][data-state=live]")
    assert public.inner_text("[data-live-indicator]") == "Live"
    shoot(public, "live-public-tournament-390")
    assert no_sideways_scroll(public)

    desk = browser.new_page(viewport={"width": 1920, "height": 1080})
    desk.goto(f"{asgi}/desk/login/?next=/desk/{tournament.pk}/rounds/1/")
    desk.fill("#id_username", "td")
    desk.fill("#id_password", "pw-desk-123")
    desk.click("button[type=submit]")
    desk.wait_for_selector("[data-live-indicator][data-state=live]")
    assert desk.locator("td span.badge.done").count() == 0
    for page in (public, desk):
        _mark(page)

    _gin(td, tournament)
    public.wait_for_selector("#tournament-live td .score:text-is('1–0')")
    desk.wait_for_selector("#round-tables td span.badge.done")
    assert _not_reloaded(public) and _not_reloaded(desk)
    assert public.inner_text("[data-live-indicator]") == "Live"
    shoot(public, "live-public-tournament-updated-390")
    shoot(desk, "live-desk-round-updated-1920", full_page=False)
    assert no_sideways_scroll(desk)
