"""The brackets in a real browser (Debian's headless chromium): a double elimination half
played, a knockout and a top cut, on a phone (390 px, the bracket scrolls in its own box),
a laptop (1280 px), the wall screen (1920 x 1080), an A4 print (landscape), in Persian
(right to left); an eight-player double elimination's lines in English and Persian on a
desktop, a phone and A4; and the desk's pairs kept apart and pairings by hand on a phone.
Screenshots go to tests/artifacts/screenshots/bracket-*.png (and two PDFs)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from players.services import player_create
from tests.fixtures.desk import sign_in
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
            assert page.evaluate(LINES) == [], (name, width)
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
    sign_in(page, base)
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
    assert page.evaluate(LINES) == []
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
    assert page.evaluate(LINES) == []
    shoot(page, "bracket-double-fa-1280")


def test_pairs_apart_and_pairings_by_hand_on_a_phone(live_server, browser):
    user = organiser("td")
    t = _event(user, 6, 1, format="swiss", rounds=3, name="Tuesday Swiss")
    base = live_server.url
    page = browser.new_page(viewport={"width": 390, "height": 844})
    sign_in(page, base)
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


# The lines' geometry in the browser, in the page's pixels: the cells and line pieces are
# real boxes (the lines themselves are their pseudo-elements, drawn at the boxes' edges and
# middles; tests/web/test_bracket_lines.py follows them through the HTML).
_GEOMETRY = """() => {
  const box = s => document.querySelector(s).getBoundingClientRect();
  const cell = id => document.querySelector(`[data-match="${id}"]`).closest('.bracket-cell')
    .getBoundingClientRect();
  const rise = box('.bracket-rise[data-line="W3-1 L4-1 GF1"]');
  const run = box('.bracket-run[data-line="W3-1 GF1"]');
  const mid = r => r.top + r.height / 2;
  return {w3: cell('W3-1'), l4: cell('L4-1'), gf1: cell('GF1'), gf2: cell('GF2'), rise, run,
          w3mid: mid(cell('W3-1')), l4mid: mid(cell('L4-1')), gfmid: mid(cell('GF1'))};
}"""


# Every line, followed in pixels from match to match: what does not meet (nothing).
LINES = (Path(__file__).parent / "bracket_lines.js").read_text(encoding="utf-8")


def _assert_lines_meet(page: Any, *, rtl: bool) -> None:
    assert page.evaluate(LINES) == []
    g = page.evaluate(_GEOMETRY)
    # The grand final between the winners' final and the losers' final, its line in at
    # its middle between theirs; the vertical's pieces end to end: the run on the winners'
    # final's rows, the rise from the bottom of them down to the top of the losers' final.
    assert g["w3mid"] < g["gfmid"] < g["l4mid"]
    assert (
        abs(g["run"]["top"] - g["w3"]["top"]) < 1
        and abs(g["run"]["bottom"] - g["w3"]["bottom"]) < 1
    )
    assert abs(g["rise"]["top"] - g["w3"]["bottom"]) < 1
    assert abs(g["rise"]["bottom"] - g["l4"]["top"]) < 1
    assert abs(g["gf1"]["top"] - g["gf2"]["top"]) < 1  # the reset straight on
    if rtl:  # right to left: the grand final at the left of both finals, the reset beyond
        assert g["gf1"]["right"] < g["l4"]["left"] and g["gf2"]["right"] < g["gf1"]["left"]
        assert g["run"]["left"] >= g["gf1"]["right"] and g["run"]["right"] <= g["w3"]["left"]
    else:
        assert g["gf1"]["left"] > g["l4"]["right"] and g["gf2"]["left"] > g["gf1"]["right"]
        assert g["run"]["left"] >= g["w3"]["right"] and g["run"]["right"] <= g["gf1"]["left"]


def test_an_eight_player_double_elimination_in_english_and_persian(live_server, browser):
    """Desktop, a phone (390 px: the bracket scrolls in its box) and A4 (print media and a
    PDF), left to right and right to left. Screenshots: bracket-de8-<en|fa>-<1280|390|
    390-scrolled|print>.png and bracket-de8-<lang>.pdf."""
    user = organiser("td")
    de = _event(user, 8, 3, format="double_elimination", name="Double Friday")
    base = live_server.url
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    sign_in(page, base)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for lang in ("en", "fa"):
        rtl = lang == "fa"
        page.emulate_media(media="screen")
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(f"{base}/tournaments/{de.pk}/?lang={lang}")
        page.wait_for_selector(".bracket-match")
        assert (page.locator("html").get_attribute("dir") == "rtl") is rtl
        assert page.locator(".bracket-drop").first.inner_text() == (
            "بازنده به L۱-۱" if rtl else "loser to L1-1"
        )
        _assert_lines_meet(page, rtl=rtl)
        assert no_sideways_scroll(page)
        # On a desktop the whole bracket shows, to the reset, without scrolling its box.
        assert page.locator(".bracket-scroll").evaluate("e => e.scrollWidth <= e.clientWidth")
        brackets = page.locator(".bracket-scroll")  # the whole bracket, as wide as it shows
        brackets.screenshot(path=str(SCREENSHOTS / f"bracket-de8-{lang}-1280.png"))

        page.set_viewport_size({"width": 390, "height": 844})
        assert no_sideways_scroll(page)
        scroller = page.locator(".bracket-scroll")
        assert scroller.evaluate("e => e.scrollWidth > e.clientWidth + 100")
        _assert_lines_meet(page, rtl=rtl)
        brackets.screenshot(path=str(SCREENSHOTS / f"bracket-de8-{lang}-390.png"))
        # Scrolled to the far end: the grand final and the reset side by side in view.
        scroller.evaluate(
            "e => { const rtl = getComputedStyle(e).direction === 'rtl'; "
            "e.scrollLeft = (rtl ? -1 : 1) * e.scrollWidth; }"
        )
        page.wait_for_function(
            "() => { const e = document.querySelector('.bracket-scroll'); "
            "return Math.abs(e.scrollLeft) + e.clientWidth >= e.scrollWidth - 1; }"
        )
        for match in ("GF1", "GF2"):
            gf = page.locator(f'[data-match="{match}"]').bounding_box()
            assert gf["x"] >= 0 and gf["x"] + gf["width"] <= 390, match
        brackets.screenshot(path=str(SCREENSHOTS / f"bracket-de8-{lang}-390-scrolled.png"))

        page.goto(f"{base}/desk/{de.pk}/bracket/?lang={lang}")
        page.wait_for_selector(".bracket-match")
        page.emulate_media(media="print")
        page.set_viewport_size({"width": 1123, "height": 794})  # A4 landscape at 96 dpi
        assert no_sideways_scroll(page)
        _assert_lines_meet(page, rtl=rtl)
        # Black on white: the lines, the boxes' borders and the names.
        colours = page.evaluate("""() => {
          const c = document.querySelector('.joins-down');
          const m = document.querySelector('.bracket-match');
          const line = getComputedStyle(c, '::after'), box = getComputedStyle(m);
          return [line.borderInlineEndColor, box.borderTopColor, box.color, box.backgroundColor];
        }""")
        assert colours == ["rgb(0, 0, 0)", "rgb(0, 0, 0)", "rgb(0, 0, 0)", "rgb(255, 255, 255)"]
        last = page.locator('[data-match="GF2"]').bounding_box()
        assert last["x"] >= 0 and last["x"] + last["width"] <= 1123  # the whole bracket on A4
        shoot(page, f"bracket-de8-{lang}-print")
        page.pdf(path=str(SCREENSHOTS / f"bracket-de8-{lang}.pdf"), format="A4", landscape=True)
    context.close()
