"""The match sheet in a real browser (headless chromium): an eight-hand Hollywood match
typed from the paper scoresheet with the keyboard only, the key presses of each hand
counted and printed (the goal: under 20 a hand), each line checked by the engine as it is
typed (its result and the games' totals beside it), Enter on the empty line saving; the
page at 390 px, 1280 px and printed on A4, screenshots in tests/artifacts/screenshots/."""

import re

import pytest

from games.hand_entries import HandEntry
from tests.fixtures.desk import sign_in
from tests.web.desk.helpers import EIGHT_HANDS, no_sideways_scroll, organiser, shoot, started
from tournaments.models import Pairing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GOAL = 20  # key presses a hand (issue 24)


class Keyboard:
    """The keyboard, counting every key pressed (a character typed is one press)."""

    def __init__(self, page) -> None:
        self.page, self.count = page, 0

    def type(self, text: str) -> None:
        for char in text:
            self.page.keyboard.press(char)
            self.count += 1

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.count += 1


def _focused(page) -> str:
    return page.evaluate("document.activeElement && document.activeElement.name || ''")


def _type_hand(page, keys: Keyboard, i: int, hand: tuple[str, str, str]) -> int:
    """Type line `i` as the paper sheet has it; the key presses it took."""
    assert _focused(page) == f"k-{i}", "each line starts in its knocker cell"
    before = keys.count
    knocker, kd, dd = hand
    keys.type(knocker)
    if knocker != "0":  # a drawn hand is its knocker cell only
        keys.press("Tab")
        keys.type(kd)
        keys.press("Tab")
        keys.type(dd)
    keys.press("Enter")
    # The engine's word on the line, beside it (a condition, not a pause).
    page.wait_for_selector(f"tr[data-line='{i}'].good")
    return keys.count - before


def _sheet_url(base, t, table):
    return f"{base}/desk/{t.pk}/rounds/1/tables/{table}/sheet/"


def test_an_eight_hand_match_typed_with_the_keyboard_only(live_server, browser):
    user = organiser("td")
    tournament = started(user, players=4)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    url = _sheet_url(live_server.url, tournament, 1)
    sign_in(page, live_server.url, then=url.removeprefix(live_server.url))
    page.wait_for_function("document.activeElement && document.activeElement.name === 'k-0'")
    keys = Keyboard(page)
    per_hand = [_type_hand(page, keys, i, hand) for i, hand in enumerate(EIGHT_HANDS)]
    line = page.locator("tr[data-line='3']")
    assert "108–58" in line.inner_text()  # game 1 after hand 4: the running totals
    assert "won" in (line.locator("[data-game='0']").get_attribute("class") or "")
    page.wait_for_selector("[data-status]:has-text('The match is decided')")
    assert _focused(page) == "k-8" and page.locator("tr[data-line='9']").is_hidden()
    shoot(page, "sheet-1280-typed")
    before_save = keys.count
    keys.press("Enter")  # on the empty line after the last hand: saved
    # The match decided: the next table waiting for its sheet (issue 37: a stack of paper
    # sheets typed one after another), with the word that table 1's were recorded.
    page.wait_for_url(re.compile(r".*/tables/2/sheet/$"))
    save_keys = keys.count - before_save
    print(
        f"\nmatch sheet, key presses per hand: {per_hand}, save: {save_keys}, total: {keys.count}"
    )
    print(f"mean {sum(per_hand) / len(per_hand):.1f} a hand (goal < {GOAL})")
    assert all(n < GOAL for n in per_hand), per_hand
    assert "Table 1: 8 hands recorded; table 2 next" in page.content()
    assert page.evaluate("document.activeElement.name") == "k-0"  # ready to type table 2
    shoot(page, "sheet-1280-saved")
    match = Pairing.objects.get(round__tournament=tournament, table=1).match
    match.refresh_from_db()
    assert match.status == "finished" and match.hands.count() == 8

    # A4 print of a sheet in progress: the lines as typed, no buttons, nothing cut.
    page.goto(_sheet_url(live_server.url, tournament, 2))
    page.wait_for_function("document.activeElement && document.activeElement.name === 'k-0'")
    for i, hand in enumerate(EIGHT_HANDS[:4]):
        _type_hand(page, keys, i, hand)
    page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
    page.emulate_media(media="print")
    assert page.locator("#sheet-form table").is_visible()
    assert not page.locator("#sheet-save").is_visible()
    assert no_sideways_scroll(page)
    shoot(page, "sheet-a4-print")
    page.pdf(path=str(shoot.__globals__["SCREENSHOTS"] / "sheet-a4.pdf"), format="A4")


def test_the_sheet_on_a_phone(live_server, browser):
    user = organiser("td")
    tournament = started(user, players=2)
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    page = context.new_page()
    url = _sheet_url(live_server.url, tournament, 1)
    sign_in(page, live_server.url, then=url.removeprefix(live_server.url))
    page.wait_for_function("document.activeElement && document.activeElement.name === 'k-0'")
    keys = Keyboard(page)
    for i, hand in enumerate(EIGHT_HANDS[:3]):
        _type_hand(page, keys, i, hand)
    # A wrong line: marked, its cell named, in words.
    keys.type("2")
    keys.press("Tab")
    keys.type("4")
    keys.press("Tab")
    keys.type("250")
    keys.press("Enter")
    page.wait_for_selector("tr[data-line='3'].bad")
    assert "at most 98" in page.locator("tr[data-line='3']").inner_text()
    assert page.locator("input[name=dd-3][aria-invalid=true]").count() == 1
    # On a phone the totals sit under each line's result: nothing wider than the screen.
    assert page.locator("tr[data-line='1'] .totals-inline").is_visible()
    inline = page.locator("tr[data-line='1'] .totals-inline").inner_text()
    # Each pair is isolated in the page's direction (U+2066 ... U+2069 on an English page).
    assert "\u206690–0\u2069 · \u206625–0\u2069" in inline
    assert no_sideways_scroll(page)
    shoot(page, "sheet-390")
    keys.press("Control+Enter")  # saving refuses the wrong line: nothing is recorded
    page.wait_for_selector(".messages .error")
    assert page.locator("input[name=dd-3][aria-invalid=true]").count() == 1
    shoot(page, "sheet-390-refused")
    match = Pairing.objects.get(round__tournament=tournament, table=1).match
    assert not match.hands.exists()

    # Right to left (Persian): the same keys, the lines mirrored, digits in Persian.
    host = live_server.url.split("//", 1)[1].split(":")[0]
    context.add_cookies([{"name": "hg_language", "value": "fa", "domain": host, "path": "/"}])
    page.goto(url)
    assert page.get_attribute("html", "dir") == "rtl"
    page.wait_for_function("document.activeElement && document.activeElement.name === 'k-0'")
    for i, hand in enumerate(EIGHT_HANDS[:2]):
        _type_hand(page, keys, i, hand)
    assert "+۶۵" in page.locator("tr[data-line='0'] [data-result]").inner_text()
    assert no_sideways_scroll(page)
    shoot(page, "sheet-390-fa")
    context.close()


def test_a_phone_entry_is_settled_from_the_sheet(live_server, browser):
    """A hand entered on a phone waits (contested here): its line is filled in on the
    sheet; the director changes the defender's deadwood and saves with the keyboard."""
    from games.models import TableEntry
    from games.services.table_entries import table_entry_dispute, table_entry_submit
    from tests.web.desk.helpers import player_with_login, table_swiss
    from tournaments import services

    user = organiser("td")
    tournament = table_swiss(user, players=0)
    for name in ("Anna", "Boris"):
        p = player_with_login(name, name.lower())
        services.tournament_register(tournament_id=tournament.pk, player=p, by=user)
        services.tournament_check_in(tournament_id=tournament.pk, player=p, by=user)
    services.tournament_start(tournament_id=tournament.pk, by=user)
    pairing = Pairing.objects.get(round__tournament=tournament)
    entry = table_entry_submit(
        match_id=pairing.match_id,
        player=pairing.player1,
        hand=HandEntry(knocker=pairing.player1.pk, knocker_deadwood=3, defender_deadwood=25),
    )
    table_entry_dispute(entry_id=entry.pk, player=pairing.player2, note="I had 35")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    url = _sheet_url(live_server.url, tournament, 1)
    sign_in(page, live_server.url, then=url.removeprefix(live_server.url))
    page.wait_for_selector("tr[data-line='0'].good")  # the entry's line, checked
    assert "entry contested" in page.inner_text("#sheet-entry")
    assert page.input_value("input[name=dd-0]") == "25"
    keys = Keyboard(page)
    page.focus("input[name=dd-0]")
    page.keyboard.press("Control+a")
    keys.type("35")
    keys.press("Enter")
    page.wait_for_selector("tr[data-line='0'].good")
    shoot(page, "sheet-1280-phone-entry")
    keys.press("Enter")  # the empty line: saved
    page.wait_for_url(re.compile(r".*/tables/1/$"))
    entry.refresh_from_db()
    assert entry.status == TableEntry.Status.AMENDED
    hand = pairing.match.hands.get()
    assert (hand.knocker_deadwood, hand.defender_deadwood) == (3, 35)
