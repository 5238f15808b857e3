"""The play page in a real browser (Debian's chromium): two players in two browser
contexts play a whole match on a preset deal through the page only; the final scoresheet
on both pages equals the API's; the same at 390 px; a reload mid-hand resumes; a lost
stream reconnects. Screenshots in tests/artifacts/screenshots/."""

import pytest

from games.selectors import match_get, match_state_at, match_view_for
from games.services import match_act
from tests.web.desk.helpers import no_sideways_scroll, shoot
from tests.web.play.browser import (
    act,
    phase,
    play_to_the_end,
    sheet_of_view,
    sheet_on_page,
    sign_in,
    version,
)
from tests.web.play.helpers import PASSWORD, cuttable_proxy, online_match, players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


RADIOS_BESIDE_THEIR_WORDS = """() => [...document.querySelectorAll('[data-confirm] .option')]
  .every(o => { const r = o.querySelector('input').getBoundingClientRect();
    const w = o.querySelector('.option-body'); if (!w) return false;
    const b = w.getBoundingClientRect(); return r.bottom > b.top && r.top < b.bottom; })"""


def _two_pages(browser, base, match, viewport):
    pages = []
    for name in ("ada", "ben"):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        sign_in(page, base, name, PASSWORD)
        page.goto(f"{base}/play/{match.pk}/")
        page.wait_for_selector("[data-live-indicator][data-state=live]")
        pages.append(page)
    return pages


@pytest.mark.parametrize("width", [1280, 390])
def test_two_players_play_a_whole_match_through_the_page(asgi, browser, width):
    ada, ben = players("Ada", "Ben")
    match = online_match(ada, ben, seed=f"whole-match-{width}")
    viewport = {"width": width, "height": 900 if width > 400 else 844}
    pages = _two_pages(browser, asgi, match, viewport)
    shots = {}

    def shot(moves):
        if moves in (1, 6) and moves not in shots:
            shots[moves] = shoot(pages[1], f"play-{width}-move-{moves}")

    beside = []

    def knock_preview(page):
        # Issue 37, item 7: each radio of the knock's confirmation beside its words (at
        # 390 px it sat alone on a line above them).
        beside.append(page.evaluate(RADIOS_BESIDE_THEIR_WORDS))
        if "knock" not in shots:
            shots["knock"] = shoot(page, f"play-{width}-knock-preview")

    play_to_the_end(pages, on_move=shot, on_confirm=knock_preview)
    assert beside and all(beside), beside
    match = match_get(match_id=match.pk)
    assert match.status == "finished"
    api = sheet_of_view(match_view_for(match=match, user=ada.user))
    for page in pages:
        assert sheet_on_page(page) == api
        assert page.get_attribute("#play", "data-version") == str(match.version)
    shoot(pages[0], f"play-{width}-match-over")
    if width == 390:
        for page in pages:
            assert no_sideways_scroll(page)


def test_a_reload_mid_hand_resumes_where_it_was(asgi, browser):
    ada, ben = players("Ada", "Ben")
    match = online_match(ada, ben, seed="reload")
    a, b = _two_pages(browser, asgi, match, {"width": 390, "height": 844})
    assert phase(b) == "first-turn"
    act(b)  # Ben passes
    a.wait_for_function("document.getElementById('play').dataset.phase === 'first-turn'")
    act(a)  # Ada passes: Ben draws from the stock
    b.wait_for_function("document.getElementById('play').dataset.phase === 'draw'")
    act(b)
    assert phase(b) == "discard"
    cards, seen = (
        sorted(b.eval_on_selector_all("[data-card]", "e => e.map(x => x.dataset.card)")),
        version(b),
    )
    b.reload()
    b.wait_for_selector("[data-live-indicator][data-state=live]")
    assert phase(b) == "discard" and version(b) == seen
    assert (
        sorted(b.eval_on_selector_all("[data-hand] [data-card]", "e => e.map(x => x.dataset.card)"))
        == cards
    )
    act(b)  # and plays on: the discard reaches Ada live
    a.wait_for_function(f"Number(document.getElementById('play').dataset.version) > {seen}")
    shoot(b, "play-390-after-reload")


def test_a_lost_stream_reconnects_and_misses_nothing(asgi, browser):
    ada, ben = players("Ada", "Ben")
    match = online_match(ada, ben, seed="lost")
    with cuttable_proxy(asgi) as (base, cut):
        context = browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        sign_in(page, base, "ada", PASSWORD)
        page.goto(f"{base}/play/{match.pk}/")
        page.wait_for_selector("[data-live-indicator][data-state=live]")
        assert phase(page) == "waiting"
        before = version(page)
        cut()  # every connection through the proxy is gone, the stream's too
        page.wait_for_selector("[data-live-indicator][data-state=reconnecting]")
        # Ben passes while Ada's page is cut off (through the API, as any client).
        state, v = match_state_at(match=match)
        match_act(match_id=match.pk, player=ben, action={"type": "pass"}, expected_version=v)
        page.wait_for_selector("[data-live-indicator][data-state=live]")
        page.wait_for_function(
            f"Number(document.getElementById('play').dataset.version) > {before}"
        )
        assert phase(page) == "first-turn"
        shoot(page, "play-390-reconnected")


def test_the_page_is_played_with_the_keyboard(asgi, browser):
    """Every card and action is a button: focus and Enter / Space play a turn; Escape
    closes a confirmation."""
    ada, ben = players("Ada", "Ben")
    match = online_match(ada, ben, seed="keys")
    a, b = _two_pages(browser, asgi, match, {"width": 1280, "height": 900})

    def press(page, selector, key="Enter"):
        before = version(page)
        page.focus(selector)
        page.keyboard.press(key)
        page.wait_for_function(
            f"Number(document.getElementById('play').dataset.version) > {before}"
        )

    press(b, "[data-action=pass]")
    a.wait_for_function("document.getElementById('play').dataset.phase === 'first-turn'")
    press(a, "[data-action=pass]", " ")
    b.wait_for_function("document.getElementById('play').dataset.phase === 'draw'")
    press(b, "[data-action=draw-stock]")
    card = b.get_attribute("[data-hand] [data-card]", "data-card")
    b.focus(f"[data-hand] [data-card='{card}']")
    b.keyboard.press(" ")
    assert b.get_attribute(f"[data-card='{card}']", "aria-pressed") == "true"
    b.focus("[data-action=resign]")
    b.keyboard.press("Enter")
    b.wait_for_selector("[data-confirm] [data-action=confirm]")
    b.keyboard.press("Escape")
    assert b.locator("[data-confirm] [data-action=confirm]").count() == 0
    b.focus(f"[data-hand] [data-card='{card}']")
    b.keyboard.press(" ")  # the card again (the confirmation redrew the hand)
    if b.get_attribute(f"[data-card='{card}']", "aria-pressed") != "true":
        b.keyboard.press(" ")
    press(b, "[data-action=discard]")
    assert phase(b) == "waiting" and card not in b.eval_on_selector_all(
        "[data-hand] [data-card]", "e => e.map(x => x.dataset.card)"
    )
