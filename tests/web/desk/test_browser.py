"""The desk in a real browser (Debian's headless chromium): a whole club evening (the desk
and two players' phones), phone width (390 px) and a browser in another time zone.
Screenshots of each page go to tests/artifacts/screenshots/ for a person to look at. Run
alone: pytest -m browser."""

import datetime as dt
import re

import pytest

from games.models import Match
from tests.web.desk.helpers import (
    no_sideways_scroll,
    organiser,
    player_with_login,
    shoot,
    started,
)
from tournaments.models import Pairing, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _sign_in(page, base: str, user: str = "td", then: str = "/desk/") -> None:
    page.goto(f"{base}{then}")
    assert "/desk/login/" in page.url
    page.fill("#id_username", user)
    page.fill("#id_password", "pw-desk-123")
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}{then}")


def _enter_hand(page, result: str, k: int, d: int, gin: bool = False) -> None:
    page.check(f"input[name=result][value={result}]")
    if gin:
        page.check("input[name=gin]")
    page.fill("input[name=knocker_deadwood]", str(k))
    page.fill("input[name=defender_deadwood]", str(d))
    page.click("#hand-form button[type=submit]")


def test_a_club_evening_from_the_desk(live_server, browser):
    organiser("td")
    for name in ("Anna", "Boris", "Clara", "Dmitri"):  # players with logins (phones)
        player_with_login(name, name.lower())
    base = live_server.url
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    _sign_in(page, base)
    shoot(page, "01-desk-home")

    # Before the event: a small Swiss at tables, one game to 10 so a gin ends a match.
    page.click("text=New tournament")
    page.fill("#id_name", "Tuesday Swiss")
    page.select_option("#id_format", "swiss")
    page.fill("#id_rounds", "3")
    page.select_option("#id_play_mode", "table")
    page.select_option("#id_time_zone", "Europe/Berlin")
    page.fill("#id_starts_at", "2026-03-03T19:30")
    page.select_option("#id_games", "1")
    page.fill("#id_game_target", "10")
    shoot(page, "02-new-tournament")
    page.click("text=Create the tournament")
    page.wait_for_selector("text=Walk-in")
    assert "Tue 3 Mar 2026 19:30 CET (Berlin)" in page.content()
    tournament = Tournament.objects.get(name="Tuesday Swiss")

    page.fill("textarea[name=names]", "Anna\nBoris\nClara\nDmitri")
    page.click("text=Enter them all")
    page.wait_for_selector("text=Dmitri")
    for name in ("Eve Walk-in", "Frank Walk-in"):
        page.fill("#id_name", name)
        page.click("form[action$='walk-in/'] button")
        page.wait_for_selector(f"text={name}")
    assert "6 entered" in page.content()
    shoot(page, "03-roster")

    # Check-in: one tap a player, htmx swaps the row and the counts.
    page.click("text=Check-in")
    page.wait_for_selector("#checkin-counts")
    for n in range(1, 7):
        page.locator("button[data-action=check-in]").first.click()
        # The next tap once htmx has swapped this one in (a slow machine must not tap the
        # same player twice).
        page.wait_for_selector(f"#checkin-counts:has-text('{n} checked in')")
    assert page.locator("button[data-action=check-in]").count() == 0
    shoot(page, "04-check-in")

    page.goto(f"{base}/desk/{tournament.pk}/")
    page.click("text=Start: pair round 1")
    page.wait_for_url(re.compile(r".*/rounds/1/$"))
    assert page.locator("td span.badge.waiting").count() == 3
    shoot(page, "05-round-1")

    # Round 1. The table where both players have logins plays on their phones: a drawn
    # hand entered by one and confirmed by the other, then a gin entered, disputed and
    # accepted by the organiser. The desk enters the other tables, correcting one hand.
    pairings = Pairing.objects.filter(round__tournament=tournament, round__number=1)
    phones_table = next(p for p in pairings if p.player1.user_id and p.player2.user_id)
    first, second = phones_table.player1, phones_table.player2
    phone = {}
    for player in (first, second):
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
        phone[player.pk] = ctx.new_page()
        _sign_in(
            phone[player.pk], base, player.user.username, then=f"/tables/{phones_table.match_id}/"
        )
    a, b = phone[first.pk], phone[second.pk]
    a.check("input[name=result][value=drawn]")
    a.click("button[value=enter]")
    a.wait_for_selector("text=Waiting for your opponent to confirm")
    shoot(a, "20-phone-entered")
    assert no_sideways_scroll(a)
    b.reload()
    b.wait_for_selector("text=Confirm this hand?")
    shoot(b, "21-phone-confirm")
    b.click("button[value=confirm]")
    b.wait_for_selector("text=Enter hand 2")
    b.check("input[name=result][value=p2]")
    b.check("input[name=gin]")
    b.fill("input[name=knocker_deadwood]", "0")
    b.fill("input[name=defender_deadwood]", "15")
    b.click("button[value=enter]")
    b.wait_for_selector("text=Waiting for your opponent to confirm")
    a.reload()
    a.fill("input[name=dispute-reason]", "my deadwood was 12")
    a.click("button[value=dispute]")
    a.wait_for_selector("text=Entry contested: the organiser decides")
    shoot(a, "22-phone-disputed")
    page.goto(f"{base}/desk/{tournament.pk}/rounds/1/")
    assert page.locator("td span.badge.disputed").count() == 1
    page.goto(f"{base}/desk/{tournament.pk}/rounds/1/tables/{phones_table.table}/")
    page.fill("input[name=note]", "counted again: 15 stands")
    shoot(page, "23-desk-dispute")
    page.click("text=Accept and record")
    page.wait_for_selector("text=The match is over")
    a.reload()
    a.wait_for_selector("text=The match is over")
    shoot(a, "24-phone-over")

    desk_tables = [p.table for p in pairings if p.pk != phones_table.pk]
    for n, table in enumerate(desk_tables):
        page.goto(f"{base}/desk/{tournament.pk}/rounds/1/tables/{table}/")
        if n == 0:  # a hand entered wrongly, refused, then one entered and corrected
            _enter_hand(page, "p2", 12, 30)  # over the knock limit: refused, shown
            page.wait_for_selector(".errorlist, .error")
            shoot(page, "09-table-error")
            _enter_hand(page, "p1", 3, 5)
            page.wait_for_selector("text=Enter hand 2")
            shoot(page, "06-table-one-hand")
            page.click("text=correct / void")
            page.check("input[name=result][value=p1]")
            page.check("input[name=gin]")
            page.fill("input[name=knocker_deadwood]", "0")
            page.fill("input[name=defender_deadwood]", "20")
            page.fill("input[name=reason]", "it was gin")
            shoot(page, "07-correct-hand")
            page.click("text=Correct hand 1")
            page.wait_for_selector("text=The match is over")
            shoot(page, "08-table-corrected")
            corrected = table
        else:
            _enter_hand(page, "p1", 0, 15, gin=True)
            page.wait_for_selector("text=The match is over")

    phones_match = Match.objects.get(pk=phones_table.match_id)
    assert [h.kind for h in phones_match.hands.order_by("hand_number")] == ["draw", "gin"]
    done = Pairing.objects.get(round__tournament=tournament, round__number=1, table=corrected)
    hand = Match.objects.get(pk=done.match_id).hands.get(hand_number=1)
    assert hand.kind == "gin" and hand.corrections

    # Round 2 paired as soon as the last result is in.
    page.goto(f"{base}/desk/{tournament.pk}/rounds/1/")
    page.wait_for_selector("text=Round complete")
    page.click("text=Round 2's pairings")
    page.wait_for_url(re.compile(r".*/rounds/2/$"))
    assert page.locator("td span.badge.waiting").count() == 3
    shoot(page, "10-round-2")

    page.goto(f"{base}/desk/{tournament.pk}/rounds/2/slips/print/")
    assert page.locator(".slip svg").count() == 3
    shoot(page, "11-slips")

    page.goto(f"{base}/desk/{tournament.pk}/standings/print/")
    assert "Ranked by: match wins" in page.content()
    shoot(page, "12-standings")
    page.emulate_media(media="print")
    assert not page.locator("header.desk").is_visible()  # print CSS hides the desk bar
    shoot(page, "13-standings-print")
    page.pdf(path=str(shoot.__globals__["SCREENSHOTS"] / "13-standings.pdf"), format="A4")


def test_pages_fit_a_phone(live_server, browser):
    user = organiser("td")
    tournament = started(user, players=6)
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    page = context.new_page()
    _sign_in(page, live_server.url)
    base = f"{live_server.url}/desk/{tournament.pk}"
    for name, url in (
        ("phone-roster", f"{base}/"),
        ("phone-check-in", f"{base}/check-in/"),
        ("phone-round", f"{base}/rounds/1/"),
        ("phone-table", f"{base}/rounds/1/tables/1/"),
        ("phone-standings", f"{base}/standings/print/"),
        ("phone-blank-sheet", f"{base}/scoresheet/blank/"),
        ("phone-public-tournament", f"{live_server.url}/tournaments/{tournament.pk}/"),
    ):
        page.goto(url)
        shoot(page, name)
        assert no_sideways_scroll(page), f"{url} is wider than 390 px"
    context.close()


def test_wall_screen(live_server, browser):
    user = organiser("td")
    tournament = started(user, players=10)
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    _sign_in(page, live_server.url)
    for name, url in (
        ("wall-round", f"{live_server.url}/desk/{tournament.pk}/rounds/1/"),
        ("wall-public-tournament", f"{live_server.url}/tournaments/{tournament.pk}/"),
    ):
        page.goto(url)
        shoot(page, name, full_page=False)
        assert no_sideways_scroll(page)
    # Refreshes itself without reloading: the live part follows the stream or polls.
    assert page.locator('meta[http-equiv="refresh"]').count() == 0
    assert page.locator("[data-live-indicator]").count() == 1


def test_times_are_the_tournaments_whatever_the_browsers_zone(live_server, browser):
    user = organiser("td")
    context = browser.new_context(timezone_id="America/New_York", locale="en-US")
    page = context.new_page()
    _sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/desk/new/")
    page.fill("#id_name", "Berlin night")
    page.fill("#id_rounds", "2")
    page.select_option("#id_time_zone", "Europe/Berlin")
    page.fill("#id_starts_at", "2026-07-07T19:30")
    page.click("text=Create the tournament")
    page.wait_for_selector("text=Walk-in")
    # Summer: 19:30 CEST in Berlin is 17:30 UTC, whatever the browser's own zone.
    assert "19:30 CEST (Berlin)" in page.content()
    shoot(page, "tz-berlin-from-new-york")
    t = Tournament.objects.get(name="Berlin night")
    assert t.starts_at.isoformat() == "2026-07-07T17:30:00+00:00"
    assert user.pk in set(t.organisers.values_list("pk", flat=True))
    context.close()


def test_the_admin_in_a_browser(live_server, browser):
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_superuser("boss", "boss@example.org", "pw-desk-123")
    td = organiser("td")
    tournament = started(td, players=4, starts_at=dt.datetime(2026, 3, 3, 18, 30, tzinfo=dt.UTC))
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", "boss")
    page.fill("#id_password", "pw-desk-123")
    page.click("input[type=submit]")
    page.wait_for_selector("text=Hollywood Gin administration")
    assert "Matches" in page.content() and "Matchs" not in page.content()
    shoot(page, "admin-index")
    page.goto(f"{live_server.url}/admin/tournaments/tournament/{tournament.pk}/change/")
    # Entered and shown in the tournament's zone: 18:30 UTC is 19:30 in Berlin.
    assert page.input_value("#id_starts_at_1").startswith("19:30")
    assert page.locator("#id_knock_limit").count() == 1
    assert page.locator("textarea[name=ruleset]").count() == 0
    shoot(page, "admin-tournament")
    pairing = Pairing.objects.filter(round__tournament=tournament).first()
    page.goto(f"{live_server.url}/admin/games/match/{pairing.match_id}/change/")
    assert page.locator("input[name=_save]").count() == 0
    page.click("text=desk (results at the table)")
    page.wait_for_url(re.compile(r".*/desk/\d+/rounds/1/tables/1/$"))
    shoot(page, "admin-match-to-desk")
