"""A dispute in a real browser (Debian's headless chromium): a player opens it on the
replay page from a phone, the organiser finds it on the desk and resolves it with a
ruling, and the player's match page shows the outcome without a reload. Screenshots at
390 and 1920 px go to tests/artifacts/screenshots/. Run alone: pytest -m browser."""

import pytest

from games.hand_entries import HandEntry
from games.models import Match
from games.services import match_record_hand
from tests.fixtures.desk import sign_in
from tests.web.desk.helpers import no_sideways_scroll, organiser, shoot, started_with_logins
from tournaments.models import Pairing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_disputes_a_hand_and_the_desk_rules_on_it(live_server, browser, settings):
    settings.WEB_LIVE_POLL_SECONDS = 1
    base = live_server.url
    td = organiser("td")
    t = started_with_logins(td)
    match = Pairing.objects.get(round__tournament=t, table=1).match
    for deadwood in (5, 7):
        match_record_hand(
            match_id=match.pk,
            by=td,
            hand=HandEntry(
                knocker=match.player1.pk, knocker_deadwood=deadwood, defender_deadwood=25
            ),
        )
    player = match.player2.user.username

    # The player, on a phone: the replay page's "Open a dispute".
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    p = phone.new_page()
    sign_in(p, base, player, f"/matches/{match.pk}/replay/")
    p.select_option("#dispute-hand", "1")
    p.fill("#dispute-statement", "The knocker's deadwood was 15, not 5.")
    p.click("#dispute-open")
    p.wait_for_selector("li.dispute[data-state=open]")
    p.locator("#disputes").scroll_into_view_if_needed()
    shoot(p, "dispute-01-replay-opened-390", full_page=False)
    p.goto(f"{base}/matches/{match.pk}/")
    p.wait_for_selector(".dispute[data-state=open]")
    assert "waiting for an organiser" in p.inner_text("#match-live")
    p.evaluate("window.__notReloaded = true")

    # The organiser: the count on the desk, the list, the dispute's page, a ruling.
    desk = browser.new_page(viewport={"width": 1920, "height": 1080})
    sign_in(desk, base, "td", f"/desk/{t.pk}/")
    desk.click("#disputes-open:has-text('Open disputes (1)')")
    desk.wait_for_selector("#disputes td.statement")
    shoot(desk, "dispute-02-desk-list-1920", full_page=False)
    desk.click("text=Answer #1")
    desk.wait_for_selector("#case[data-state=open]")
    assert "The knocker's deadwood was 15, not 5." in desk.inner_text("#case")
    assert desk.locator("#rule-form [name=rule-hand_number]").input_value() == "1"
    assert desk.locator("fieldset[data-for=adjust_score]").is_hidden()  # void: hand only
    shoot(desk, "dispute-03-desk-page-1920")
    desk.fill("#rule-form [name=rule-reason]", "Deadwood recounted: the hand is void.")
    desk.click("text=Record the ruling and close the dispute")
    desk.wait_for_selector("#case[data-state=ruled]")
    assert desk.locator("#rule-form").count() == 0
    shoot(desk, "dispute-04-desk-ruled-1920", full_page=False)
    match.refresh_from_db()
    assert match.hands.get(hand_number=1).voided

    # The player's page shows the outcome by itself (the fallback poll under this server).
    p.wait_for_selector(".dispute[data-state=ruled]")
    assert p.evaluate("window.__notReloaded === true")
    assert "Ruled by td: Deadwood recounted: the hand is void." in p.inner_text("#match-live")
    shoot(p, "dispute-05-player-outcome-390")
    assert no_sideways_scroll(p)
    p.goto(f"{base}/matches/{match.pk}/replay/")
    p.wait_for_selector("li.dispute[data-state=ruled]")
    phone.close()

    # The desk's dispute pages on a phone: nothing wider than the screen.
    small = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    s = small.new_page()
    sign_in(s, base, "td", f"/desk/{t.pk}/disputes/")
    shoot(s, "dispute-06-desk-list-390")
    assert no_sideways_scroll(s)
    s.goto(f"{base}/desk/{t.pk}/disputes/{match.pk}/1/")
    shoot(s, "dispute-07-desk-ruled-390")
    assert no_sideways_scroll(s)
    assert Match.objects.get(pk=match.pk).version == match.version


def test_the_dispute_page_fits_a_phone_while_open(live_server, browser):
    from games.services.disputes import match_dispute_open

    td = organiser("td")
    t = started_with_logins(td)
    match = Pairing.objects.get(round__tournament=t, table=1).match
    match_record_hand(
        match_id=match.pk,
        by=td,
        hand=HandEntry(knocker=match.player1.pk, knocker_deadwood=3, defender_deadwood=20),
    )
    match_dispute_open(
        match_id=match.pk, player=match.player1, hand_number=None,
        statement="My opponent looked at the stock while shuffling. " * 6,
    )  # fmt: skip
    small = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    s = small.new_page()
    sign_in(s, live_server.url, "td", f"/desk/{t.pk}/disputes/")
    assert s.locator("#disputes td.statement").count() == 1
    shoot(s, "dispute-10-desk-list-open-390")
    assert no_sideways_scroll(s)
    s.click("text=Answer #1")
    s.wait_for_selector("#case[data-state=open]")
    s.select_option("#rule-form [name=rule-type]", "adjust_score")
    assert s.locator("fieldset[data-for=adjust_score]").is_visible()
    assert s.locator("fieldset[data-for=correct_hand]").is_hidden()
    shoot(s, "dispute-08-desk-page-open-390")
    assert no_sideways_scroll(s)
    s.goto(f"{live_server.url}/desk/{t.pk}/rounds/1/")
    assert s.locator("td a.badge.dispute").count() == 1
    assert "1 open dispute" in s.inner_text("#disputes-open")
    shoot(s, "dispute-09-desk-round-390")
    assert no_sideways_scroll(s)
