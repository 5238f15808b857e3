"""The play page and "my evening" at 390 px (a phone) and 1280 px (a laptop), in English
and in Persian (right to left): nothing runs off the screen or out of its box (a card's
face, a button's word, the scoresheet), nothing scrolls sideways. Screenshots in
tests/artifacts/screenshots/layout-*.png for a person to look at."""

import datetime as dt

import pytest

from games.engine.bot import choose_action
from games.selectors import match_state_at
from games.services import match_act
from players.services import player_create
from tests.web.desk.helpers import no_sideways_scroll, organiser, shoot
from tests.web.play.browser import sign_in
from tests.web.play.helpers import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every element inside `root` that sticks out of the window, and every card face, button,
# badge or cell whose own text is wider than its box (a deliberate ellipsis aside).
CLIPPED = """root => {
  const width = document.documentElement.clientWidth, out = [];
  const name = e => e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).trim()
    .replace(/\\s+/g, '.') : '') + (e.dataset.card ? '[' + e.dataset.card + ']' : '');
  for (const e of document.querySelectorAll(root + ' *')) {
    const r = e.getBoundingClientRect();
    if (!r.width || getComputedStyle(e).visibility === 'hidden') continue;
    if (e.closest('.visually-hidden')) continue;
    if (r.left < -1 || r.right > width + 1) out.push('off screen: ' + name(e));
    const own = e.matches('.face, button, .badge, .live, .stock, td, th, .chip, h1, h2');
    if (own && getComputedStyle(e).textOverflow !== 'ellipsis'
        && e.scrollWidth > e.clientWidth + 1) out.push('text wider than its box: ' + name(e));
  }
  return out;
}"""


def _evening_with_an_online_match():
    """An online Swiss round in play: Cleopatra (a long name) to discard, 11 cards."""
    from tournaments import services
    from tournaments.models import Pairing

    td = organiser()
    t = services.tournament_create(
        name="Online Thursday at the Riverside Club", format="swiss", created_by=td, rounds=3,
        turn_time=dt.timedelta(minutes=2), time_zone="Europe/Bucharest", play_mode="online",
    )  # fmt: skip
    cleo = player_create(name="Cleopatra Longname-Vasilescu", username="cleo", password=PASSWORD)
    ben = player_create(name="Benedikt Oberhauser", username="ben", password=PASSWORD)
    for p in (cleo, ben):
        services.tournament_register(tournament_id=t.pk, player=p, by=td)
        services.tournament_check_in(tournament_id=t.pk, player=p, by=td)
    services.tournament_start(tournament_id=t.pk, by=td)
    match = Pairing.objects.get(round__tournament=t).match
    seat = match.seat_of(cleo.pk)
    for _ in range(60):  # until it is Cleopatra's discard, some cards on the pile
        state, version = match_state_at(match=match)
        if state.turn == seat and state.phase == "discard" and len(state.discard_pile) >= 3:
            break
        player = match.player1 if state.turn == 0 else match.player2
        match_act(
            match_id=match.pk,
            player=player,
            action=choose_action(state, state.turn),
            expected_version=version,
        )
    return match


@pytest.mark.parametrize("locale", ["en-GB", "fa-IR"])
@pytest.mark.parametrize("width", [390, 1280])
def test_nothing_is_clipped_on_the_play_page_and_my_evening(asgi, browser, width, locale):
    match = _evening_with_an_online_match()
    viewport = {"width": width, "height": 844 if width < 400 else 900}
    page = browser.new_context(viewport=viewport, locale=locale).new_page()
    sign_in(page, asgi, "cleo", PASSWORD)
    lang = locale[:2]
    assert page.evaluate("document.documentElement.lang") == lang
    page.wait_for_selector("main")
    assert no_sideways_scroll(page)
    assert page.evaluate(CLIPPED, "body") == []
    shoot(page, f"layout-{lang}-{width}-evening")

    page.goto(f"{asgi}/play/{match.pk}/")
    page.wait_for_selector("[data-live-indicator][data-state=live]")
    assert page.get_attribute("#play", "data-phase") == "discard"
    # The scoresheet names each player whole (it cut "Ștefan Ione…" with an ellipsis).
    page.wait_for_selector(".scoresheet th bdi")
    cut = page.evaluate(
        "() => [...document.querySelectorAll('.scoresheet th bdi')]"
        ".filter(b => b.scrollWidth > b.clientWidth + 1 || b.offsetHeight === 0)"
        ".map(b => b.textContent)"
    )
    assert cut == [], cut
    names = page.inner_text(".scoresheet thead")
    assert "Cleopatra Longname-Vasilescu" in names and "Benedikt Oberhauser" in names, names
    assert page.locator("[data-hand] [data-card]").count() == 11
    for sort in ("melds", "suit", "rank"):
        page.click(f"[data-sort={sort}]")
        assert no_sideways_scroll(page), sort
        assert page.evaluate(CLIPPED, "body") == [], sort
    # A ten is the widest face ("10♠"): give the hand one, whatever was dealt.
    page.evaluate(
        "() => { const f = document.querySelector('[data-hand] .face');"
        " f.classList.add('ten'); f.querySelector('bdi').textContent = '10\u2660'; }"
    )
    assert page.evaluate(CLIPPED, "[data-hand]") == []
    page.click("[data-sort=melds]")
    page.click("[data-hand] [data-card] >> nth=0")
    shoot(page, f"layout-{lang}-{width}-play")
    page.click("[data-action=resign]")
    page.wait_for_selector("[data-confirm] [data-action=confirm]")
    assert page.evaluate(CLIPPED, "body") == []
    shoot(page, f"layout-{lang}-{width}-play-confirm")
