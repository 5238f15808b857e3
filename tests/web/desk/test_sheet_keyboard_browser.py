"""The desk's match sheet with the keyboard only (issue 37), from the round's page: Tab to
the table, Enter, Tab to "Type the match sheet", Enter, the eight hands typed, Enter on the
empty line saves (and opens the next table's sheet). No mouse; every place the focus lands
is visibly marked (a :focus-visible outline, read from the computed style). In English and
in Persian (right to left)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.fixtures.desk import sign_in
from tests.web.desk.helpers import EIGHT_HANDS, organiser, shoot, started
from tournaments.models import Pairing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOCUS = (
    "(() => { const e = document.activeElement; const s = getComputedStyle(e);"
    " return [e.tagName, e.id || e.name || e.getAttribute('href') || '', s.outlineStyle,"
    " parseFloat(s.outlineWidth)]; })()"
)


def _visibly_focused(page: Any) -> list[Any]:
    tag, name, style, width = page.evaluate(FOCUS)
    assert style == "solid" and width >= 2, f"the focus on {tag} {name} is not visible: {style}"
    return [tag, name]


def _tab_to(page: Any, selector: str, most: int = 60) -> int:
    for n in range(1, most + 1):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement.matches({selector!r})"):
            _visibly_focused(page)
            return n
    raise AssertionError(f"Tab never reached {selector}")


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_sheet_from_the_round_page_with_the_keyboard_only(live_server, browser, lang):
    td = organiser("td")
    tournament = started(td, players=4)
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, locale=lang,
        extra_http_headers={"Accept-Language": lang},
    )  # fmt: skip
    context.add_cookies([{"name": "hg_language", "value": lang, "url": live_server.url}])
    page = context.new_page()
    round_path = f"/desk/{tournament.pk}/rounds/1/"
    sign_in(page, live_server.url, then=round_path)
    _tab_to(page, f"a[href='{round_path}tables/1/']")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r".*/tables/1/$"))
    _tab_to(page, "#sheet-link")
    shoot(page, f"keyboard-sheet-{lang}-link-focused", full_page=False)
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.name === 'k-0'")
    _visibly_focused(page)
    for i, (knocker, kd, dd) in enumerate(EIGHT_HANDS):
        assert page.evaluate("document.activeElement.name") == f"k-{i}"
        page.keyboard.type(knocker)
        if knocker != "0":
            for value in (kd, dd):
                page.keyboard.press("Tab")
                _visibly_focused(page)
                page.keyboard.type(value)
        page.keyboard.press("Enter")
        page.wait_for_selector(f"tr[data-line='{i}'].good")
        _visibly_focused(page)
    shoot(page, f"keyboard-sheet-{lang}-typed", full_page=False)
    page.keyboard.press("Enter")  # on the empty line after the last hand: saved
    # The next table's sheet opens with the cursor in its first cell (the paper stack).
    page.wait_for_url(re.compile(r".*/tables/2/sheet/$"))
    page.wait_for_function("document.activeElement && document.activeElement.name === 'k-0'")
    _visibly_focused(page)
    match = Pairing.objects.get(round__tournament=tournament, table=1).match
    match.refresh_from_db()
    assert match.status == "finished" and match.hands.count() == 8
