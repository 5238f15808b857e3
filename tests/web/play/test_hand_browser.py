"""My hand on the play page in a real browser: cards dragged into an order of my own with a
mouse and with a finger (pointer events), the same with the keyboard (Alt + arrows), the
order kept on reload; and the hand-over state (a hand's end on screen until I press "Next
hand") kept on reload. Screenshots in tests/artifacts/screenshots/."""

import pytest

from games.engine.bot import choose_action
from games.selectors import match_state_at
from games.services import match_act
from tests.web.desk.helpers import no_sideways_scroll, shoot
from tests.web.play.browser import my_cards, phase, sign_in
from tests.web.play.helpers import PASSWORD, online_match, players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _open(browser, base, match, *, width=1280, touch=False):
    viewport = {"width": width, "height": 900 if width > 400 else 844}
    context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
    page = context.new_page()
    sign_in(page, base, "ada", PASSWORD)
    page.goto(f"{base}/play/{match.pk}/")
    page.wait_for_selector("[data-live-indicator][data-state=live]")
    page.wait_for_selector("[data-hand] [data-card]")
    return page


def _centre(page, card):
    box = page.locator(f"[data-hand] [data-card='{card}']").bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, box


def _sort_pressed(page) -> str:
    return page.get_attribute(".sort [aria-pressed=true]", "data-sort")


def test_a_card_is_dragged_with_the_mouse_and_the_order_survives_a_reload(asgi, browser):
    ada, ben = players("Ada", "Ben")
    match = online_match(ada, ben, seed="drag-mouse")
    page = _open(browser, asgi, match)
    assert phase(page) == "waiting"  # Ben moves first: I may not pick, I may still arrange
    before = my_cards(page)
    moved, target = before[0], before[3]
    x, y, _ = _centre(page, moved)
    tx, ty, box = _centre(page, target)
    page.mouse.move(x, y)
    page.mouse.down()
    for step in range(1, 11):  # a real drag: many small moves
        page.mouse.move(x + (tx + box["width"] / 4 - x) * step / 10, y + (ty - y) * step / 10)
    page.wait_for_selector("[data-hand] .dragging")
    shoot(page, "play-1280-dragging-a-card")
    page.mouse.up()
    expected = [c for c in before if c != moved]
    expected.insert(expected.index(target) + 1, moved)  # dropped past the target's middle
    page.wait_for_function(
        "order => JSON.stringify([...document.querySelectorAll('[data-hand] [data-card]')]"
        ".map(e => e.dataset.card)) === JSON.stringify(order)",
        arg=expected,
    )
    assert _sort_pressed(page) == "own"
    # A drag is not a click: no card was chosen.
    assert page.locator("[data-hand] [data-card][aria-pressed=true]").count() == 0
    page.reload()
    page.wait_for_selector("[data-hand] [data-card]")
    assert my_cards(page) == expected and _sort_pressed(page) == "own"
    # Sorting by suit, then back to my order.
    page.click("[data-sort=suit]")
    assert my_cards(page) != expected or sorted(expected) == expected
    page.click("[data-sort=own]")
    assert my_cards(page) == expected


def test_a_finger_drags_a_card_on_a_phone(asgi, browser):
    ada, ben = players("Ada", "Ben")
    match = online_match(ada, ben, seed="drag-touch")
    page = _open(browser, asgi, match, width=390, touch=True)
    before = my_cards(page)
    moved, target = before[-1], before[0]
    x, y, _ = _centre(page, moved)
    tx, ty, box = _centre(page, target)
    to_x = tx - box["width"] / 4  # before the target's middle (left-to-right)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 13):
        point = {"x": x + (to_x - x) * step / 12, "y": y + (ty - y) * step / 12}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    expected = [moved, *before[:-1]]
    page.wait_for_function(
        "order => JSON.stringify([...document.querySelectorAll('[data-hand] [data-card]')]"
        ".map(e => e.dataset.card)) === JSON.stringify(order)",
        arg=expected,
    )
    assert page.evaluate("window.scrollY") == 0  # the finger dragged, it did not scroll
    assert no_sideways_scroll(page)
    shoot(page, "play-390-dragged-by-touch")


def test_the_keyboard_moves_a_card_with_alt_and_the_arrows(asgi, browser):
    ada, ben = players("Ada", "Ben")
    match = online_match(ada, ben, seed="drag-keys")
    page = _open(browser, asgi, match)
    before = my_cards(page)
    card = before[1]
    page.focus(f"[data-hand] [data-card='{card}']")
    page.keyboard.press("Alt+ArrowRight")
    page.wait_for_function(
        "c => document.querySelectorAll('[data-hand] [data-card]')[2].dataset.card === c", arg=card
    )
    assert page.evaluate("document.activeElement.dataset.card") == card  # focus stays on it
    page.keyboard.press("Alt+Home")
    assert my_cards(page)[0] == card
    assert page.text_content("[data-order-note]")  # said to a screen reader
    # Alt+arrows on a card do not select it; Space still does (when I may pick).
    assert page.get_attribute(f"[data-card='{card}']", "aria-pressed") == "false"


def _play_until_hand_one_is_over(match) -> None:
    for _ in range(500):
        state, version = match_state_at(match=match)
        if state.hand_number != 1 or state.status != "in_progress":
            return
        seat = state.turn
        player = match.player1 if seat == 0 else match.player2
        match_act(
            match_id=match.pk,
            player=player,
            action=choose_action(state, seat),
            expected_version=version,
        )
    raise AssertionError("hand 1 did not end")


def test_the_hand_over_state_survives_a_reload(asgi, browser):
    ada, ben = players("Ada", "Ben")
    # A long game: the first hand cannot end the match.
    match = online_match(ada, ben, seed="hand-over", ruleset={"game_target": 250, "games": 1})
    page = _open(browser, asgi, match, width=390)
    assert phase(page) == "waiting"
    _play_until_hand_one_is_over(match)  # both seats through the API, as the bot would
    assert match_state_at(match=match)[0].status == "in_progress"
    page.wait_for_function("document.getElementById('play').dataset.phase === 'hand-over'")
    page.wait_for_selector("[data-hand-over] [data-hand-end='1']")
    page.reload()
    page.wait_for_selector("[data-live-indicator][data-state=live]")
    assert phase(page) == "hand-over"
    assert page.locator("[data-hand-over] [data-hand-end='1']").is_visible()
    # Issue 37, item 7: the heading over hand 1's result says hand 1 (it said "Hand 2").
    assert page.text_content("[data-hand-number]") == "Hand 1"
    shoot(page, "play-390-hand-over-after-reload")
    page.click("[data-action=next-hand]")
    page.wait_for_function("document.getElementById('play').dataset.phase !== 'hand-over'")
    assert page.text_content("[data-hand-number]") == "Hand 2"
    page.reload()
    page.wait_for_selector("[data-live-indicator][data-state=live]")
    assert phase(page) != "hand-over"
    assert page.locator("[data-hand-over] [data-hand-end]").count() == 0
