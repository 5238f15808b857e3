"""A team captain's page in a real browser at 390 px (a phone), in English and in Persian
(right to left), issue 39: from "my evening" to the page, a row dragged by its grip, a row
moved with Alt + the down arrow key, another by its move-up button pressed with Enter, each
new place said in the live region; the lineup saved is the order on the screen; once
paired, the round's boards read-only. Screenshots: tests/artifacts/screenshots/captain-*.png."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.desk.helpers import no_sideways_scroll, organiser, shoot
from tests.web.play.browser import sign_in
from tests.web.play.helpers import PASSWORD, team_event_with_captains
from tournaments.teams.models import Team
from tournaments.teams.selectors import team_event_lineups
from tournaments.teams.services import team_round_pair

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ORDER = "els => els.map(e => Number(e.dataset.player))"


def _order(page: Any) -> list[int]:
    return page.eval_on_selector_all("[data-lineup] [data-player]", ORDER)


def _until_order(page: Any, order: list[int]) -> None:
    page.wait_for_function(
        "want => JSON.stringify([...document.querySelectorAll('[data-lineup] [data-player]')]"
        ".map(e => Number(e.dataset.player))) === JSON.stringify(want)",
        arg=order,
    )


def _drag(page: Any, row: int, onto: int) -> None:
    """Drag `row`'s grip with the mouse (pointer events) to the top edge of row `onto`."""
    grip = page.locator(f"[data-player='{row}'] [data-grip]").bounding_box()
    target = page.locator(f"[data-player='{onto}']").bounding_box()
    page.mouse.move(grip["x"] + grip["width"] / 2, grip["y"] + grip["height"] / 2)
    page.mouse.down()
    x, y = target["x"] + target["width"] / 2, target["y"] + 4
    page.mouse.move(x, y, steps=12)
    page.mouse.up()


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_a_lineup_by_drag_and_by_keyboard_on_a_phone(asgi, browser, lang):
    td = organiser()
    event, (lions, _) = team_event_with_captains(td)
    a, b, c = Team.objects.get(event=event, number=1).roster
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=False)
    context.add_cookies([{"name": "hg_language", "value": lang, "url": asgi}])
    page = context.new_page()
    sign_in(page, asgi, "lions", PASSWORD)
    page.click(f"[data-captain-link='{event.pk}']")
    page.wait_for_url(f"**/me/teams/{event.pk}/")
    assert page.get_attribute("html", "dir") == ("rtl" if lang == "fa" else "ltr")
    page.wait_for_selector(".lineup-list.sortable")  # the script took the form over
    assert not page.locator("[data-player] input[type=number]").first.is_visible()
    assert _order(page) == [a, b, c]

    _drag(page, c, onto=a)  # the reserve dragged to the top: board 1
    _until_order(page, [c, a, b])
    assert page.get_attribute(f"[data-player='{b}']", "data-board") == ""  # now the reserve

    page.focus(f"[data-player='{a}'] [data-move=down]")
    page.keyboard.press("Alt+ArrowDown")  # the captain steps down to the reserve
    _until_order(page, [c, b, a])
    note = page.locator("[data-lineup-note]")
    want = "Lions Cap: reserve, not playing." if lang == "en" else "Lions Cap: ذخیره"
    assert want in note.inner_text()
    # The focus stays on the moved row's button: a second move goes on from there.
    assert page.evaluate("document.activeElement.closest('[data-player]').dataset.player") == str(a)

    page.focus(f"[data-player='{b}'] [data-move=up]")
    page.keyboard.press("Enter")  # the move-up button, by the keyboard
    _until_order(page, [b, c, a])
    want = "Lions 0: board 1 of 2." if lang == "en" else "Lions 0: میز ۱ از ۲."
    assert want in note.inner_text()
    assert no_sideways_scroll(page)
    shoot(page, f"captain-{lang}-390-moved")

    page.click("[data-upcoming] button[type=submit]")
    page.wait_for_url(f"**/me/teams/{event.pk}/?saved=1")
    page.wait_for_selector("[data-saved]")
    (lineup,) = [r for r in team_event_lineups(event=event) if r["team"] == 1]
    assert lineup["players"] == [b, c] and lineup["set"] is True
    page.wait_for_selector(".lineup-list.sortable")
    assert _order(page) == [b, c, a]  # the page shows what was saved
    assert no_sideways_scroll(page)
    shoot(page, f"captain-{lang}-390-saved")

    # Paired: round 1's boards with the opponent's players, read-only; the form moves on.
    team_round_pair(event_id=event.pk, round_number=1, by=td)
    page.reload()
    page.wait_for_selector("[data-in-play='1']")
    assert not page.locator("[data-saved]").count()  # round 1's lineup, not round 2's
    boards = page.locator("[data-in-play='1'] table").inner_text()
    assert "Lions 0" in boards and "Lions 1" in boards and "Owls" in boards
    assert page.locator("[data-upcoming='2']").is_visible()
    assert no_sideways_scroll(page)
    shoot(page, f"captain-{lang}-390-paired")
    context.close()
