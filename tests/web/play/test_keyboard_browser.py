"""A whole hand on the play page with the keyboard only (issue 37; lichess's screen-reader
mode the anchor): no mouse, only `page.keyboard`; the opponent moves through the service as
the bot would. My hand is one tab stop whose cards the arrow keys walk (right to left in
Persian), a card I draw takes the focus, the focus is always visible, the cards are buttons
named in the reader's language with aria-pressed when chosen, and the opponent's moves are
announced in a polite live region in the reader's language. axe-core checks the page in
each state the hand passes through (my draw, a card chosen, the knock's dialog, the hand's
end). Screenshots in tests/artifacts/screenshots/ (keyboard-*)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from games.engine.bot import choose_action
from games.engine.melds import best_discard
from games.selectors import match_state_at
from games.services import match_act
from tests.web.a11y import axe_violations, described
from tests.web.desk.helpers import shoot
from tests.web.play.browser import my_cards, phase, sign_in
from tests.web.play.helpers import PASSWORD, online_match, players
from web.play.strings import card_name_parts

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ACTIVE = "document.activeElement"


def _open(browser: Any, base: str, match: Any, lang: str) -> Any:
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, locale=lang,
        extra_http_headers={"Accept-Language": lang},
    )  # fmt: skip
    context.add_cookies([{"name": "hg_language", "value": lang, "url": base}])
    page = context.new_page()
    sign_in(page, base, "ada", PASSWORD)
    page.goto(f"{base}/play/{match.pk}/")
    page.wait_for_selector("[data-live-indicator][data-state=live]")
    page.wait_for_selector("[data-hand] [data-card]")
    return page


def _opponent_moves(match: Any, ada: Any) -> None:
    """The opponent (the bot's choices, through the service) until it is my turn or the
    hand is over."""
    for _ in range(10):
        state, version = match_state_at(match=match)
        if state.status != "in_progress" or state.turn is None:
            return
        player = match.player1 if state.turn == 0 else match.player2
        if player.pk == ada.pk:
            return
        match_act(
            match_id=match.pk, player=player, action=choose_action(state, state.turn),
            expected_version=version,
        )  # fmt: skip


def _focused(page: Any) -> dict[str, Any]:
    return page.evaluate(
        f"(() => {{ const e = {ACTIVE}; const s = getComputedStyle(e);"
        " return { card: e.dataset.card || null, action: e.dataset.action || null,"
        " tag: e.tagName, outline: s.outlineStyle, width: parseFloat(s.outlineWidth),"
        " pressed: e.getAttribute('aria-pressed'), label: e.getAttribute('aria-label') }; })()"
    )


def _visible_focus(page: Any) -> None:
    f = _focused(page)
    assert f["outline"] == "solid" and f["width"] >= 2, f"focus not visible: {f}"


class Keys:
    """The keyboard, counting its presses; each focus it lands on is checked visible."""

    def __init__(self, page: Any) -> None:
        self.page, self.count = page, 0

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.count += 1

    def tab_to(self, selector: str, most: int = 30) -> int:
        """Tab until the focus is on `selector`; the presses it took."""
        for n in range(1, most + 1):
            self.press("Tab")
            if self.page.evaluate(f"{ACTIVE}.matches({selector!r})"):
                _visible_focus(self.page)
                return n
        raise AssertionError(f"Tab never reached {selector}: at {_focused(self.page)}")

    def arrow_to(self, card: str, rtl: bool) -> None:
        """From the focused card, the arrow keys to `card` (left and right as they look)."""
        order = my_cards(self.page)
        now = _focused(self.page)["card"]
        assert now in order, f"the focus is not in my hand: {_focused(self.page)}"
        steps = order.index(card) - order.index(now)
        forward, back = ("ArrowLeft", "ArrowRight") if rtl else ("ArrowRight", "ArrowLeft")
        for _ in range(abs(steps)):
            self.press(forward if steps > 0 else back)
        assert _focused(self.page)["card"] == card
        _visible_focus(self.page)


def _axe_clean(page: Any, state: str, found: dict[str, str]) -> None:
    violations = axe_violations(page)
    if violations:
        found[state] = described(violations)


def _wait_phase(page: Any, *phases: str) -> str:
    page.wait_for_function(
        "ps => ps.includes(document.getElementById('play').dataset.phase)", arg=list(phases)
    )
    return phase(page)


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_a_whole_hand_with_the_keyboard_only(asgi, browser, lang) -> None:
    ada, ben = players("Ada", "Ben")
    match = online_match(ada, ben, seed=f"keys-{lang}", ruleset={"game_target": 100, "games": 1})
    _opponent_moves(match, ada)  # Ben is to move first
    page = _open(browser, asgi, match, lang)
    rtl = lang == "fa"
    keys, found = Keys(page), {}
    ranks, suits = card_name_parts_in(lang)
    draws = 0
    _axe_clean(page, "my first turn", found)
    while True:
        now = _wait_phase(page, "first-turn", "draw", "discard", "hand-over", "waiting")
        before = int(page.get_attribute("#play", "data-version"))
        if now == "waiting":
            _opponent_moves(match, ada)
            page.wait_for_function(
                "v => Number(document.getElementById('play').dataset.version) !== v", arg=before
            )
            continue
        if now == "hand-over":
            # The hand is over: its end takes the focus's place ("Next hand").
            keys.tab_to("[data-action=next-hand]")
            _axe_clean(page, "the hand's end", found)
            shoot(page, f"keyboard-{lang}-hand-over")
            keys.press("Enter")
            _wait_phase(page, "first-turn", "draw", "waiting", "match-over")
            break
        if now == "first-turn":
            keys.tab_to("[data-action=pass]")
            keys.press("Enter")
        elif now == "draw":
            keys.tab_to("[data-action=draw-stock]")
            held = set(my_cards(page))
            keys.press("Enter")
            _wait_phase(page, "discard")
            draws += 1
            # The card I drew has the focus (the same render that showed the discard phase
            # put it there), named in my language, not yet chosen.
            drawn = _focused(page)
            assert {drawn["card"]} == set(my_cards(page)) - held, f"not on my new card: {drawn}"
            assert drawn["label"] == _name(drawn["card"], ranks, suits), drawn
            assert drawn["pressed"] == "false"
            _visible_focus(page)
            if draws == 1:
                shoot(page, f"keyboard-{lang}-drawn-card-focused")
            # My hand is one tab stop: the next Tab leaves it for the actions.
            assert page.locator("[data-hand] [data-card][tabindex='0']").count() == 1
        elif now == "discard":
            card, _ = best_discard(my_cards(page))
            keys.arrow_to(card, rtl)
            keys.press("Space")
            page.wait_for_selector(f"[data-hand] [data-card='{card}'][aria-pressed=true]")
            assert _focused(page)["card"] == card  # chosen, the focus stays on it
            if draws == 1:
                _axe_clean(page, "a card chosen", found)
            if page.is_enabled("[data-action=knock]"):
                assert keys.tab_to("[data-action=knock]") == 2  # Discard, then Knock
                keys.press("Enter")
                page.wait_for_selector("[data-confirm] [data-deadwood]")
                # The dialog's confirm button has the focus: Enter knocks.
                assert _focused(page)["action"] == "confirm"
                _visible_focus(page)
                _axe_clean(page, "the knock's dialog", found)
                shoot(page, f"keyboard-{lang}-knock-dialog")
                # Modal: Tab goes round inside it; Escape closes it, the focus back on Knock.
                for _ in range(4):
                    keys.press("Tab")
                    assert page.evaluate(
                        f"document.querySelector('[data-confirm]').contains({ACTIVE})"
                    )
                keys.press("Escape")
                page.wait_for_selector("[data-confirm] [data-deadwood]", state="detached")
                assert _focused(page)["action"] == "knock"
                keys.press("Enter")
                page.wait_for_selector("[data-confirm] [data-deadwood]")
                assert _focused(page)["action"] == "confirm"
                keys.press("Enter")
            else:
                assert keys.tab_to("[data-action=discard]") == 1  # straight from my hand
                keys.press("Enter")
        page.wait_for_function(
            "v => Number(document.getElementById('play').dataset.version) !== v", arg=before
        )
    state, _ = match_state_at(match=match)
    assert state.hand_number == 2 or state.status == "finished"  # the whole hand was played
    assert draws >= 1
    print(f"\na whole hand with the keyboard only ({lang}): {keys.count} key presses")
    report = "\n\n".join(f"{k}:\n{v}" for k, v in found.items())
    assert not found, f"axe on the play page ({lang}):\n{report}"


def card_name_parts_in(lang: str) -> tuple[dict[str, str], dict[str, str]]:
    with translation.override(lang):
        return card_name_parts()


def _name(code: str, ranks: dict[str, str], suits: dict[str, str]) -> str:
    return suits[code[1]] % {"rank": ranks[code[0]]}


def _said(lang: str, message: str, name: str) -> str:
    """The play page's sentence `message` for `name`, in `lang` (web/play/strings.py)."""
    with translation.override(lang):
        return translation.gettext(message) % {"name": name}


def _region_text(page: Any) -> str:
    return page.inner_text("[data-last-move]").replace("\u2068", "").replace("\u2069", "")


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_opponents_moves_are_announced_in_my_language(asgi, browser, lang) -> None:
    ada, ben = players("Ada", "Ben")
    match = online_match(ada, ben, seed=f"live-{lang}", ruleset={"game_target": 100, "games": 1})
    page = _open(browser, asgi, match, lang)
    assert phase(page) == "waiting"  # Ben, the non-dealer, moves first
    region = page.locator("[data-last-move]")
    assert region.get_attribute("aria-live") == "polite"
    ranks, suits = card_name_parts_in(lang)

    def ben_does(action: dict[str, Any], who: Any = ben) -> None:
        _, version = match_state_at(match=match)
        match_act(match_id=match.pk, player=who, action=action, expected_version=version)

    def announced(text: str) -> None:
        page.wait_for_function(
            "t => document.querySelector('[data-last-move]').innerText"
            ".replace(/[\\u2068\\u2069]/g, '').includes(t)",
            arg=text,
        )

    ben_does({"type": "pass"})
    announced(_said(lang, "%(name)s passed.", "Ben"))
    ben_does({"type": "pass"}, who=ada)  # my own move is not announced as his
    ben_does({"type": "draw", "source": "stock"})
    announced(_said(lang, "%(name)s drew from the stock.", "Ben"))
    state, _ = match_state_at(match=match)
    card, _ = best_discard(sorted(state.hands[state.turn]))
    ben_does({"type": "discard", "card": card})
    announced(_said(lang, "%(name)s discarded", "Ben"))
    # The card is named in my language (an image with its name), not "7, black heart suit".
    face = page.locator("[data-last-move] [role=img]")
    assert face.get_attribute("aria-label") == _name(card, ranks, suits)
    assert page.get_attribute("[data-last-move]", "data-last-move") == "CardDiscarded"
    shoot(page, f"play-{lang}-opponent-move-announced", full_page=False)
    assert "Ada" not in _region_text(page)
