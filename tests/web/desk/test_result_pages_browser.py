"""The result pages changed for issue 24 in headless Chromium, at 390 px, 1280 px and A4
print: the table's page (its match sheet link, the saved message), the correction page
(at 1280 px the scoresheet beside the forms, not squeezed into a narrow column) and the
round page's warning of a late correction (a visible box saying what changed)."""

import pytest
from django.test import Client

from games.hand_entries import HandEntry
from games.services import match_rule
from tests.tournaments.helpers import record_gins, table_tournament
from tests.web.desk.helpers import no_sideways_scroll, organiser, shoot
from tournaments.models import Pairing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"390": (390, 844), "1280": (1280, 900), "a4": (794, 1123)}


def _evening():
    from players.models import Player

    td = organiser()
    players = [Player.objects.create(name=n) for n in ("Ann", "Ben", "Cy", "Di")]
    tournament = table_tournament(td, players)
    first = list(Pairing.objects.filter(round__tournament=tournament, round__number=1))
    for pairing in first:
        record_gins(pairing.match_id, td, pairing.player1)
    # Eager jobs: round 2 is paired. Hand 1 at table 1 recounted: only the points change.
    match_rule(
        match_id=first[0].match_id,
        by=td,
        type="correct_hand",
        reason="counted again",
        hand_number=1,
        hand=HandEntry(
            knocker=first[0].player1.pk, gin=True, knocker_deadwood=0, defender_deadwood=40
        ),
    )
    return td, tournament


def _pages(browser, live_server, user):
    client = Client()
    client.force_login(user)
    host = live_server.url.split("//", 1)[1].split(":")[0]
    cookie = {"name": "sessionid", "value": client.cookies["sessionid"].value}
    for size, (width, height) in SIZES.items():
        context = browser.new_context(viewport={"width": width, "height": height})
        context.add_cookies([cookie | {"domain": host, "path": "/"}])
        page = context.new_page()
        if size == "a4":
            page.emulate_media(media="print")
        yield size, page
        context.close()


def test_the_result_pages_at_a_phone_a_laptop_and_on_paper(live_server, browser):
    td, tournament = _evening()
    base = f"{live_server.url}/desk/{tournament.pk}"
    for size, page in _pages(browser, live_server, td):
        page.goto(f"{base}/rounds/2/")
        box = page.locator("#corrections .warning").first
        assert "Only the points changed" in box.inner_text()
        style = box.evaluate("e => getComputedStyle(e).borderInlineStartWidth")
        assert style == "5px" or size == "a4", style  # a box, not a line of text
        assert no_sideways_scroll(page)
        shoot(page, f"round-correction-warning-{size}")

        page.goto(f"{base}/rounds/1/tables/1/hands/1/")
        points = page.locator("table.hands th:has-text('Points')")
        if size != "390":  # a phone shows the hands as blocks, each value named
            assert points.is_visible()
        if size == "1280":
            sheet = page.locator("table.hands").bounding_box()
            assert sheet["width"] > 560, sheet  # the scoresheet is not squeezed
        assert no_sideways_scroll(page)
        shoot(page, f"hand-correct-{size}")

        page.goto(f"{base}/rounds/2/tables/1/")
        if size != "a4":
            assert page.locator("#sheet-link").is_visible()
        assert no_sideways_scroll(page)
        shoot(page, f"table-{size}")
