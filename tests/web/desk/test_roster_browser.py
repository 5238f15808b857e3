"""Issue 24's pages in a real browser at 390 px (a phone), 1280 px (the desk's laptop), A4
print and the 1920x1080 wall: the roster (search, check in all, undo, withdraw), the new
member page, the login codes' page, the blank scoresheet and the slips on A4, the dispute
page that says a ruling came after the next round was paired, the public page of a
finished tournament and the wall screen. Screenshots: tests/artifacts/screenshots/."""

from __future__ import annotations

import re

import pytest

from games.hand_entries import HandEntry
from games.services.disputes import match_dispute_open, match_dispute_resolve
from players.models import Player
from tests.fixtures.desk import sign_in
from tests.tournaments.helpers import record_gins, table_tournament
from tests.web.desk.helpers import SCREENSHOTS, no_sideways_scroll, organiser, shoot, started
from tournaments import services
from tournaments.models import Pairing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A4 at 96 px an inch, less the print margins (desk.css: 10 mm each side): 190 mm.
A4_PRINTABLE = {"width": 718, "height": 1040}


def _fits(page) -> bool:
    """Nothing wider than the page, and every table's right edge inside it."""
    return no_sideways_scroll(page) and page.evaluate(
        """() => [...document.querySelectorAll('table')].every(
             t => t.getBoundingClientRect().right <= document.documentElement.clientWidth + 1)"""
    )


def _three_ways(browser, base: str, pages: list[tuple[str, str]], *, post: str = "") -> None:
    """Each page at 390 px, at 1280 px and printed on A4 (a screenshot and a PDF)."""
    for width, label in ((390, "390"), (1280, "1280")):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        sign_in(page, base)
        for name, url in pages:
            page.goto(base + url)
            shoot(page, f"i24-{name}-{label}")
            assert _fits(page), f"{url} does not fit {width} px"
        context.close()
    context = browser.new_context(viewport=A4_PRINTABLE)
    page = context.new_page()
    sign_in(page, base)
    page.emulate_media(media="print")
    for name, url in pages:
        page.goto(base + url)
        shoot(page, f"i24-{name}-a4")
        assert _fits(page), f"{url} does not fit A4"
        page.pdf(path=str(SCREENSHOTS / f"i24-{name}-a4.pdf"), format="A4")
    context.close()


def test_the_roster_pages_at_390_1280_and_a4(live_server, browser):
    td = organiser("td")
    tournament = services.tournament_create(
        name="Tuesday Swiss", format="swiss", created_by=td, rounds=3, play_mode="table",
        time_zone="Europe/Bucharest",
    )  # fmt: skip
    for name in ("Ștefan Ionescu", "Ana Pop", "Zoë Müller-Lüdenscheidt", "Radu Tudor"):
        player = Player.objects.create(name=name)
        services.tournament_register(tournament_id=tournament.pk, player=player, by=td)
    base = live_server.url
    t = f"/desk/{tournament.pk}"
    _three_ways(browser, base, [("roster", f"{t}/"), ("check-in", f"{t}/check-in/"),
                                ("member", f"{t}/member/")])  # fmt: skip

    # At the door, on a phone: the search finds Ștefan by "stef", Enter checks him in;
    # check in the rest, undo one, withdraw one.
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    sign_in(page, base)
    page.goto(f"{base}{t}/check-in/")
    page.fill("#roster-search", "stef")
    assert page.locator("tr.checkin-row:visible").count() == 1
    page.press("#roster-search", "Enter")
    page.wait_for_selector("#checkin-counts:has-text('1 checked in')")
    page.fill("#roster-search", "nobody here")
    page.wait_for_selector("#roster-none:visible")
    page.fill("#roster-search", "")
    page.click("#check-in-all")
    page.wait_for_selector("#checkin-counts:has-text('4 checked in')")
    page.locator("tr.checkin-row", has_text="Ana Pop").locator(
        "[data-action=undo-check-in]"
    ).click()
    page.wait_for_selector("#checkin-counts:has-text('3 checked in')")
    row = page.locator("tr.checkin-row", has_text="Radu Tudor")
    row.locator("summary").click()
    row.locator("input[name=reason]").fill("feeling unwell")
    shoot(page, "i24-withdraw-open-390")
    assert no_sideways_scroll(page)
    row.locator("[data-action=withdraw]").click()
    page.wait_for_selector("#checkin-counts:has-text('1 withdrawn')")
    shoot(page, "i24-check-in-after-390")
    assert no_sideways_scroll(page)

    # A member with a login, then every login code on one A4 page.
    page.goto(f"{base}{t}/member/")
    page.fill("#id_name", "Maria Pop")
    page.fill("#id_username", "maria")
    page.click("text=Create the account and enter them")
    page.wait_for_url(f"{base}{t}/#roster")
    assert page.locator("tr.checkin-row", has_text="Maria Pop").count() == 1
    context.close()

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    sign_in(page, base)
    page.goto(f"{base}{t}/check-in/")
    page.click("#print-login-codes")
    page.wait_for_selector(".code-slip")
    assert page.locator(".code-slip").count() == 4  # not Radu (withdrawn)
    shoot(page, "i24-login-codes-1280")
    page.emulate_media(media="print")
    page.set_viewport_size(A4_PRINTABLE)
    shoot(page, "i24-login-codes-a4")
    assert _fits(page)
    page.pdf(path=str(SCREENSHOTS / "i24-login-codes-a4.pdf"), format="A4")
    pdf = page.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page(?!s)", pdf)) == 1  # one A4 page
    context.close()


def test_the_prints_and_the_dispute_page_at_390_1280_and_a4(live_server, browser):
    td = organiser("td")
    players = [Player.objects.create(name=n) for n in ("Ann", "Ben", "Cy", "Di")]
    tournament = table_tournament(td, players)
    first = list(Pairing.objects.filter(round__tournament=tournament, round__number=1))
    for pairing in first:
        record_gins(pairing.match_id, td, pairing.player1)
    pairing = first[0]
    match_dispute_open(match_id=pairing.match_id, player=pairing.player2, hand_number=1,
                       statement="That gin was mine.")  # fmt: skip
    match_dispute_resolve(
        match_id=pairing.match_id, by=td, dispute=1, outcome="ruled", reason="Ben's gin.",
        ruling={"type": "correct_hand", "reason": "Ben's gin.", "hand_number": 1,
                "hand": HandEntry(knocker=pairing.player2_id, gin=True, knocker_deadwood=0,
                                  defender_deadwood=30)},
    )  # fmt: skip
    t = f"/desk/{tournament.pk}"
    _three_ways(browser, live_server.url, [
        ("blank-sheet", f"{t}/scoresheet/blank/"),
        ("slips", f"{t}/rounds/2/slips/print/"),
        ("dispute", f"{t}/disputes/{pairing.match_id}/1/"),
        ("round-1", f"{t}/rounds/1/"),
    ])  # fmt: skip


def test_the_public_pages_finished_and_the_wall(live_server, browser):
    td = organiser("td")
    finished = started(td, players=4, rounds=1)
    for pairing in Pairing.objects.filter(round__tournament=finished):
        record_gins(pairing.match_id, td, pairing.player1, hands=4)
    finished.refresh_from_db()
    assert finished.status == "finished"
    wall = started(td, players=10, rounds=4)
    for pairing in Pairing.objects.filter(round__tournament=wall)[:2]:
        record_gins(pairing.match_id, td, pairing.player1, hands=4)
    base = live_server.url
    for width in (390, 1280):
        page = browser.new_page(viewport={"width": width, "height": 900})
        for name, url in (("public-finished", f"/tournaments/{finished.pk}/"),
                          ("public-wall", f"/tournaments/{wall.pk}/"), ("home", "/")):  # fmt: skip
            page.goto(base + url)
            shoot(page, f"i24-{name}-{width}")
            assert no_sideways_scroll(page)
        page.close()
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(f"{base}/tournaments/{finished.pk}/")
    assert "played " in page.inner_text("#when-played") and "starts" not in page.inner_text(
        "#when-played"
    )
    page.goto(f"{base}/tournaments/{wall.pk}/")
    shoot(page, "i24-wall-1920", full_page=False)
    # Both the round in play and the standings above the fold, side by side.
    current = page.locator("#current-round").bounding_box()
    standings = page.locator(".wall-standings table").bounding_box()
    assert current["y"] + current["height"] <= 1080, current
    assert standings["y"] + standings["height"] <= 1080, standings
    beside = page.locator(".wall-standings").bounding_box()
    assert abs(current["y"] - beside["y"]) < 5 and beside["x"] > current["x"] + current["width"]
    font = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('.wall-round td')).fontSize)"
    )
    assert font >= 22, font  # readable across the room
    page.emulate_media(media="print")
    page.set_viewport_size(A4_PRINTABLE)
    page.goto(f"{base}/tournaments/{finished.pk}/")
    shoot(page, "i24-public-finished-a4")
    assert _fits(page)
