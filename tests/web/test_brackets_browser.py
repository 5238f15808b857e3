"""The brackets in a real browser (Debian's headless chromium): a double elimination half
played, a knockout and a top cut, on a phone (390 px, the bracket scrolls in its own box),
a laptop (1280 px), the wall screen (1920 x 1080), an A4 print (landscape), in Persian
(right to left); and the desk's pairs kept apart and pairings by hand on a phone.
Screenshots go to tests/artifacts/screenshots/bracket-*.png."""

from __future__ import annotations

from typing import Any

import pytest

from players.services import player_create
from tests.tournaments.helpers import FAST_RULES, forfeit_round
from tests.web.desk.helpers import SCREENSHOTS, no_sideways_scroll, organiser, shoot
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Ana Popescu", "Bernd Müller-Lüdenscheidt", "Cat Žukauskaitė", "Dan", "Eva Ionescu",
    "Farhad Rahimi", "Greta Schön", "Hugo", "Ilona Vaitkutė", "Jonas", "Kian", "Lena",
]  # fmt: skip


def _event(by: Any, n: int, rounds_played: int, **kwargs: Any) -> Any:
    kwargs.setdefault("rounds", None)
    t = services.tournament_create(
        name=kwargs.pop("name", "Friday Cup"), created_by=by, ruleset=FAST_RULES, **kwargs
    )
    for name in NAMES[:n]:
        player = player_create(name=name)
        services.tournament_register(tournament_id=t.pk, player=player, by=by)
        services.tournament_check_in(tournament_id=t.pk, player=player, by=by)
    services.tournament_start(tournament_id=t.pk, by=by)
    for _ in range(rounds_played):
        forfeit_round(t, by)
    t.refresh_from_db()
    return t


def _sign_in(page: Any, base: str) -> None:
    page.goto(f"{base}/desk/login/")
    page.fill("#id_username", "td")
    page.fill("#id_password", "pw-desk-123")
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/desk/")


def test_brackets_on_a_phone_a_laptop_the_wall_and_paper(live_server, browser):
    user = organiser("td")
    de = _event(user, 8, 3, format="double_elimination", name="Double Friday")
    ko = _event(user, 6, 1, format="knockout", name="Knockout Friday")
    cut = _event(user, 8, 4, format="swiss", rounds=3, top_cut=4, third_place=True,
                 name="Swiss and a top 4")  # fmt: skip
    base = live_server.url
    for width, height in ((390, 844), (1280, 900)):
        page = browser.new_page(viewport={"width": width, "height": height})
        for name, t in (("double", de), ("knockout", ko), ("top-cut", cut)):
            page.goto(f"{base}/tournaments/{t.pk}/")
            page.wait_for_selector(".bracket-match")
            assert no_sideways_scroll(page), (name, width)
            shoot(page, f"bracket-{name}-{width}")
        # Every name is whole on the phone: the bracket's box scrolls, nothing is cut off.
        page.goto(f"{base}/tournaments/{de.pk}/")
        box = page.locator(".bracket-scroll").first
        assert box.evaluate("e => e.scrollWidth >= e.clientWidth")
        long_name = page.locator(".bracket-side bdi", has_text="Lüdenscheidt").first
        assert long_name.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
        page.close()

    wall = browser.new_page(viewport={"width": 1920, "height": 1080})
    for name, t in (("double", de), ("top-cut", cut)):
        wall.goto(f"{base}/tournaments/{t.pk}/")
        wall.wait_for_selector(".bracket-match")
        assert no_sideways_scroll(wall)
        shoot(wall, f"bracket-{name}-wall", full_page=False)
        if t == de:
            # The first round beside the second (a column per round), its match between
            # the two that feed it.
            w1 = wall.locator('[data-match="W1-1"]').bounding_box()
            w12 = wall.locator('[data-match="W1-2"]').bounding_box()
            w2 = wall.locator('[data-match="W2-1"]').bounding_box()
            assert w2["x"] > w1["x"] + w1["width"]
            assert w1["y"] < w2["y"] + w2["height"] / 2 < w12["y"] + w12["height"]
    wall.close()

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    _sign_in(page, base)
    page.goto(f"{base}/desk/{de.pk}/")
    page.wait_for_selector(".bracket-match")
    shoot(page, "bracket-desk-1280")
    page.goto(f"{base}/desk/{de.pk}/bracket/")
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 1123, "height": 794})  # A4 landscape at 96 dpi
    assert not page.locator("header.desk").is_visible()
    assert no_sideways_scroll(page)
    shoot(page, "bracket-double-print")
    page.pdf(path=str(SCREENSHOTS / "bracket-double.pdf"), format="A4", landscape=True)
    page.goto(f"{base}/desk/{cut.pk}/bracket/")
    shoot(page, "bracket-top-cut-print")
    context.close()


def test_a_bracket_right_to_left_in_persian(live_server, browser):
    user = organiser("td")
    de = _event(user, 6, 2, format="double_elimination", name="جام جمعه")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/tournaments/{de.pk}/?lang=fa")  # the wall screen's link
    page.wait_for_selector(".bracket-match")
    assert page.locator("html").get_attribute("dir") == "rtl"
    # Right to left: the first round on the right, the next to its left.
    w1 = page.locator('[data-match="W1-1"]').bounding_box()
    w2 = page.locator('[data-match="W2-1"]').bounding_box()
    assert w2["x"] + w2["width"] < w1["x"]
    assert no_sideways_scroll(page)
    shoot(page, "bracket-double-fa-1280")


def test_pairs_apart_and_pairings_by_hand_on_a_phone(live_server, browser):
    user = organiser("td")
    t = _event(user, 6, 1, format="swiss", rounds=3, name="Tuesday Swiss")
    base = live_server.url
    page = browser.new_page(viewport={"width": 390, "height": 844})
    _sign_in(page, base)
    page.goto(f"{base}/desk/{t.pk}/pairs-apart/")
    page.select_option("#id_first", label="Ana Popescu")
    page.select_option("#id_second", label="Bernd Müller-Lüdenscheidt")
    page.fill("#id_reason", "siblings")
    page.click("text=Keep apart")
    page.wait_for_selector("text=They may meet")
    assert no_sideways_scroll(page)
    shoot(page, "bracket-desk-pairs-apart-390")
    # Round 2 by hand: round 1's first table again, a rematch to confirm.
    first = t.rounds.get(number=1).pairings.get(table=1)
    page.goto(f"{base}/desk/{t.pk}/rounds/2/")
    page.click("#by-hand")
    page.select_option("#a1", str(first.player1_id))
    page.select_option("#b1", str(first.player2_id))
    taken = {first.player1_id, first.player2_id}
    others = [r.player_id for r in t.registrations.all() if r.player_id not in taken]
    for i, player in enumerate(others):
        page.select_option(f"#{'ab'[i % 2]}{2 + i // 2}", str(player))
    page.fill("#id_reason", "the club asked")
    page.click("text=Set these pairings")
    page.wait_for_selector("#pairing-conflicts")
    assert "have met already" in page.inner_text("#pairing-conflicts")
    assert no_sideways_scroll(page)
    shoot(page, "bracket-desk-by-hand-warning-390")
    page.click("#confirm-pairings")
    page.wait_for_url(f"{base}/desk/{t.pk}/rounds/2/")
    page.wait_for_selector("text=pairings set by hand")
    shoot(page, "bracket-desk-by-hand-done-390")
