"""The replay of a table match in headless Chromium: no empty card table, the scoresheet's
lines up to the event shown; a hand entered on a phone names who entered it and who
confirmed it; the checks and the audit bundle have a plain sentence beside their technical
words. At 390 px, 1280 px and printed on A4 (screenshots in tests/artifacts/screenshots/)."""

from __future__ import annotations

import pytest
from django.test import Client

from games.hand_entries import HandEntry
from games.services import match_record_hand
from games.services.table_entries import table_entry_confirm, table_entry_submit
from tests.web.desk.helpers import (
    no_sideways_scroll,
    organiser,
    player_with_login,
    shoot,
    table_swiss,
)
from tournaments import services
from tournaments.models import Pairing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _table_match():
    td = organiser()
    tournament = table_swiss(td, players=0)
    for name in ("Anna", "Boris"):
        p = player_with_login(name, name.lower())
        services.tournament_register(tournament_id=tournament.pk, player=p, by=td)
        services.tournament_check_in(tournament_id=tournament.pk, player=p, by=td)
    services.tournament_start(tournament_id=tournament.pk, by=td)
    pairing = Pairing.objects.get(round__tournament=tournament)
    first, second = pairing.player1, pairing.player2
    # Hand 1 on the phones: entered by the first player, confirmed by the second.
    entry = table_entry_submit(
        match_id=pairing.match_id,
        player=first,
        hand=HandEntry(knocker=first.pk, knocker_deadwood=4, defender_deadwood=30),
    )
    table_entry_confirm(entry_id=entry.pk, player=second)
    # Hand 2 at the desk, hand 3 drawn.
    match_record_hand(
        match_id=pairing.match_id,
        by=td,
        hand=HandEntry(knocker=second.pk, gin=True, knocker_deadwood=0, defender_deadwood=20),
    )
    match_record_hand(match_id=pairing.match_id, by=td, hand=HandEntry(drawn=True))
    return pairing, first, second


def _page(browser, live_server, user, width, height=900):
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": width, "height": height})
    host = live_server.url.split("//", 1)[1].split(":")[0]
    cookie = {"name": "sessionid", "value": client.cookies["sessionid"].value}
    context.add_cookies([cookie | {"domain": host, "path": "/"}])
    return context.new_page()


def test_a_table_match_replays_as_its_scoresheet_lines(live_server, browser):
    pairing, first, second = _table_match()
    url = f"{live_server.url}/matches/{pairing.match_id}/replay/"
    page = _page(browser, live_server, first.user, 1280)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.wait_for_selector("#sheet-lines table")
    assert page.locator("#stock").count() == 0 and "0 cards" not in page.inner_text("body")
    assert page.locator("#sheet-lines tr").count() == 4  # a header and three hands
    lines = page.inner_text("#sheet-lines")
    who = f"entered by {first.name}, confirmed by {second.name}"
    assert who in lines
    assert "entered by td" in lines  # the desk's hands: who typed them
    # Back to hand 1's record: the lines as they stood then, its entry named in the event.
    page.keyboard.press("Home")
    recorded = page.locator("#hand-jump option[value='1']").get_attribute("data-index")
    page.select_option("#hand-jump", "1")
    assert int(recorded) >= 0
    page.keyboard.press("ArrowRight")  # from the deal-less start of hand 1 to its record
    page.wait_for_selector("#event-meta:has-text('entered by')")
    assert who in page.inner_text("#event-meta")
    assert page.locator("#sheet-lines tr.current").count() == 1
    page.keyboard.press("End")
    body = page.inner_text("body")
    assert "In plain words: a match played at a table has no dealt cards to check" in body
    assert "anyone can check it on their own computer" in body
    shoot(page, "replay-table-1280")
    assert not errors, errors

    phone = _page(browser, live_server, first.user, 390, 844)
    phone.goto(url)
    phone.wait_for_selector("#sheet-lines td")
    assert no_sideways_scroll(phone)
    assert phone.locator("#sheet-lines td[data-label]").first.is_visible()
    shoot(phone, "replay-table-390")

    page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
    page.emulate_media(media="print")
    assert page.locator("#sheet-lines table").is_visible()
    assert no_sideways_scroll(page)
    shoot(page, "replay-table-a4-print")
