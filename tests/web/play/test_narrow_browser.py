"""Nothing clipped at 390 px: the hands of a scoresheet (a table's phone page) and the
public standings fit the phone's width instead of running off the screen (they were
568 px and 558 px wide in a 377 px box)."""

import pytest

from games.hand_entries import HandEntry
from games.services import match_record_hand
from tests.web.desk.helpers import organiser, shoot, started_with_logins
from tests.web.play.browser import sign_in
from tournaments.models import Pairing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FITS = """sel => { const t = document.querySelector(sel); const r = t.getBoundingClientRect();
  return r.left >= 0 && r.right <= document.documentElement.clientWidth + 1
    && t.scrollWidth <= t.clientWidth + 1; }"""


def test_the_hands_and_the_standings_fit_a_phone(live_server, browser):
    td = organiser("td")
    names = ("Anna", "Boris", "Cleopatra Longname", "Dan")
    t = started_with_logins(td, names=names, ruleset={"game_target": 100, "games": 1})
    for pairing in Pairing.objects.filter(round__tournament=t):
        m = pairing.match
        match_record_hand(
            match_id=m.pk,
            by=td,
            hand=HandEntry(knocker=m.player1.pk, knocker_deadwood=3, defender_deadwood=25),
        )
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    page.wait_for_selector("table.standings")
    assert page.evaluate(FITS, "table.standings")
    shoot(page, "narrow-390-standings")
    sign_in(page, live_server.url, "anna", "pw-desk-123")
    mine = Pairing.objects.get(round__tournament=t, player1__name="Anna").match
    page.goto(f"{live_server.url}/me/")
    evening_bar = page.evaluate("document.querySelector('header').getBoundingClientRect().height")
    page.goto(f"{live_server.url}/tables/{mine.pk}/")
    page.wait_for_selector("table.hands")
    # Issue 37, item 7: the table's phone page has the players' bar of "my evening", not
    # the desk's header (225 px high at 390 px).
    bar = page.evaluate("document.querySelector('header').getBoundingClientRect().height")
    assert page.locator("header.bar").count() == 1 and bar == evening_bar and bar < 100, bar
    assert page.evaluate(FITS, "table.hands")
    assert "22" in page.inner_text("table.hands [data-label=Points]")
    shoot(page, "narrow-390-hands")
