"""The phone loop in a real browser at 390 px (Debian's chromium): A enters a hand at the
table, B's phone shows it without a reload and B confirms it with one tap; a rejected
entry reaches both phones with the reason; when the next round is paired, A's "my
evening" shows the new table without a reload. Screenshots in tests/artifacts/."""

import re
import time
from collections.abc import Iterator

import pytest
from django.db.models import Q

from games.hand_entries import HandEntry
from games.selectors import match_get, table_entry_open
from games.services import match_record_hand
from games.services.table_entries import table_entry_decide, table_entry_submit
from tests.web.desk.helpers import (
    asgi_server_with_static,
    no_sideways_scroll,
    organiser,
    shoot,
    started_with_logins,
)
from tests.web.play.browser import sign_in
from tournaments.models import Pairing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
RULES = {"game_target": 25, "games": 1}


@pytest.fixture
def asgi(settings) -> Iterator[str]:
    settings.LIVE_KEEPALIVE_SECONDS = 1
    settings.LIVE_POLL_SECONDS = 0.2
    settings.WEB_LIVE_POLL_SECONDS = 600  # were a page polling, the test would time out
    with asgi_server_with_static() as url:
        yield url


def _phone(browser, base, username):
    page = browser.new_context(viewport=PHONE).new_page()
    sign_in(page, base, username, "pw-desk-123")
    return page


def _mark(page) -> None:
    page.evaluate("window.__notReloaded = true")


def _not_reloaded(page) -> bool:
    return page.evaluate("window.__notReloaded === true")


def test_the_phone_loop(asgi, browser):
    td = organiser("td")
    t = started_with_logins(td, names=("Anna", "Boris", "Cleo", "Dan"), ruleset=RULES)
    anna_pairing = Pairing.objects.get(
        Q(player1__name="Anna") | Q(player2__name="Anna"), round__tournament=t
    )
    match = anna_pairing.match
    anna = match.player1 if match.player1.name == "Anna" else match.player2
    other = match.player2 if anna == match.player1 else match.player1
    url = f"{asgi}/tables/{match.pk}/"
    a, b = _phone(browser, asgi, "anna"), _phone(browser, asgi, other.name.lower())
    for page in (a, b):
        page.goto(url)
        page.wait_for_selector("[data-live-indicator][data-state=live]")
        _mark(page)
    # A enters a hand: B's phone shows it without a reload, and B confirms with one tap.
    a.check(f"input[name=result][value={'p1' if anna == match.player1 else 'p2'}]")
    a.fill("input[name=knocker_deadwood]", "4")
    a.fill("input[name=defender_deadwood]", "20")
    a.click("button[name=action][value=enter]")
    a.wait_for_selector("[data-entry-status=pending]")  # A's own form sent: a new page
    _mark(a)
    b.wait_for_selector("[data-entry-status=pending] [data-action=confirm-entry]")
    assert _not_reloaded(b) and "Anna knocked, deadwood 4 / 20" in b.inner_text("#phone-panel")
    shoot(b, "phone-loop-390-to-confirm")
    assert no_sideways_scroll(b)
    b.click("[data-action=confirm-entry]")
    a.wait_for_function(
        f"document.querySelector('#phone-panel').dataset.matchVersion !== '{match.version}'"
    )
    assert _not_reloaded(a) and "Enter hand 2" in a.inner_text("#phone-panel")
    b.wait_for_selector("#hand-form")  # B's tap sent a form: a new page
    _mark(b)
    assert match_get(match_id=match.pk).hand_number == 1
    # A rejected entry reaches both phones with the organiser's reason.
    a.check(f"input[name=result][value={'p1' if anna == match.player1 else 'p2'}]")
    a.fill("input[name=knocker_deadwood]", "2")
    a.fill("input[name=defender_deadwood]", "9")
    a.click("button[name=action][value=enter]")
    a.wait_for_selector("[data-entry-status=pending]")
    _mark(a)
    b.wait_for_selector("[data-entry-status=pending]")
    entry = table_entry_open(match=match)
    table_entry_decide(entry_id=entry.pk, by=td, accept=False, note="deadwood was 19, not 9")
    for page in (a, b):
        page.wait_for_selector(f"[data-rejected-entry='{entry.pk}']")
        assert "deadwood was 19, not 9" in page.inner_text("[data-reject-reason]")
        assert page.is_visible("#hand-form")  # it can be entered again
    assert _not_reloaded(b)
    shoot(a, "phone-loop-390-rejected")
    assert no_sideways_scroll(a)
    # Anna follows her evening; the round ends (every table's result): round 2's table
    # appears there without a reload.
    a.goto(f"{asgi}/me/")
    a.wait_for_selector("[data-tournament-live][data-state=live]")
    assert a.get_attribute("[data-current-table]", "data-round") == "1"
    _mark(a)
    for pairing in Pairing.objects.filter(round__tournament=t, round__number=1):
        m = pairing.match
        match_record_hand(
            match_id=m.pk,
            by=td,
            hand=HandEntry(
                knocker=m.player1.pk, gin=True, knocker_deadwood=0, defender_deadwood=30
            ),
        )
    a.wait_for_selector("[data-current-table][data-round='2']")
    assert _not_reloaded(a)
    assert "Round 2: table" in a.inner_text("[data-current-table]")
    shoot(a, "phone-loop-390-my-evening-round-2")
    assert no_sideways_scroll(a)


def test_an_entry_decided_before_the_page_follows_the_stream_is_shown(asgi, browser):
    """The page is made with the entry waiting; the organiser rejects it before the page's
    stream has opened (a busy machine did so in the phone loop). The stream's first entry
    message, on connecting, is that rejection: the page must show it, not take it for the
    entry it already shows."""
    td = organiser("td")
    t = started_with_logins(td, names=("Anna", "Boris"), ruleset=RULES)
    match = Pairing.objects.get(round__tournament=t).match
    anna = match.player1 if match.player1.name == "Anna" else match.player2
    entry = table_entry_submit(
        match_id=match.pk,
        player=anna,
        hand=HandEntry(knocker=anna.pk, knocker_deadwood=4, defender_deadwood=20),
    )
    a = _phone(browser, asgi, "anna")
    held = []  # the page's stream request, held until the entry is decided
    a.route(re.compile(r".*/api/matches/[^/]+/stream/.*"), lambda route: held.append(route))
    a.goto(f"{asgi}/tables/{match.pk}/")
    a.wait_for_selector(f"[data-entry='{entry.pk}'][data-entry-status=pending]")
    a.wait_for_function("() => true")  # let the page ask for its stream
    deadline = time.monotonic() + 90
    while not held:
        assert time.monotonic() < deadline, "the page never asked for its stream"
        a.wait_for_function("() => true")
    table_entry_decide(entry_id=entry.pk, by=td, accept=False, note="deadwood was 19, not 4")
    held[0].continue_()
    a.wait_for_selector(f"[data-rejected-entry='{entry.pk}']")
    assert "deadwood was 19, not 4" in a.inner_text("[data-reject-reason]")
    assert a.is_visible("#hand-form")
