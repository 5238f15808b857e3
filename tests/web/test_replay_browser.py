"""The replay page in headless Chromium (Debian's /usr/bin/chromium, driven by Playwright):
stepping through a finished match with the keyboard, the commitments and the hash chain
recomputed by the browser, a tampered deck marked as failed, a player's view of a hand in
play. Screenshots go to tests/artifacts/screenshots/."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.web.desk.helpers import CHROMIUM

SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "screenshots"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no Chromium at {CHROMIUM}"),
]


def _page_as(browser, client, live_server, user, *, width=1000):
    client.force_login(user)
    context = browser.new_context(viewport={"width": width, "height": 900})
    host = live_server.url.split("//", 1)[1].split(":")[0]
    context.add_cookies(
        [
            {
                "name": "sessionid",
                "value": client.cookies["sessionid"].value,
                "domain": host,
                "path": "/",
            }
        ]  # fmt: skip
    )
    return context.new_page()


def _finished(alice, bob):
    from tests.games.audit.helpers import finished_match

    return finished_match(alice, bob, seed="browser")


def test_step_through_a_finished_match_and_see_it_verified(
    browser, client, live_server, alice, bob
):
    import eventstore

    match = _finished(alice, bob)
    stored = eventstore.load(stream_id=match.stream_id)
    page = _page_as(browser, client, live_server, alice.user)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/matches/{match.pk}/replay/")
    page.wait_for_selector("#checks-summary[data-state]")
    assert page.get_attribute("#checks-summary", "data-state") == "ok"
    assert page.get_attribute("#check-hand-1", "data-state") == "ok"
    assert page.get_attribute("#check-chain", "data-state") == "ok"
    # Home, then step forward with the arrow key: the deal shows the two dealt hands.
    page.keyboard.press("Home")
    assert page.inner_text("#position").startswith("1 /")
    deal = next(e for e in stored if e.type == "HandDealt")
    for _ in range(deal.version - 1):
        page.keyboard.press("ArrowRight")
    assert page.inner_text("#position").startswith(f"{deal.version} /")
    deck = deal.data["deck"]
    dealer = deal.data["dealer"]
    non_dealer_cards = set(deck[0:20:2])
    shown = set(page.eval_on_selector_all(
        f'.hand[data-seat="{1 - dealer}"] svg.card', "els => els.map(e => e.dataset.card)"
    ))  # fmt: skip
    assert shown == non_dealer_cards
    assert page.inner_text("#stock").strip().endswith("31")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#position").startswith(f"{deal.version + 1} /")
    # Its deals came from a seed: the page says so, above everything else.
    assert page.is_visible("#preset-deals")
    assert "Deals chosen by the organiser" in page.inner_text("#preset-deals")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "replay-finished-match.png"), full_page=True)
    assert errors == []


def test_a_tampered_deck_is_marked_failed(browser, client, live_server, alice, bob):
    import eventstore
    from tests.games.audit.helpers import deck_swapped, tamper_event

    match = _finished(alice, bob)
    deal = next(e for e in eventstore.load(stream_id=match.stream_id) if e.type == "HandDealt")
    tamper_event(stream_id=match.stream_id, version=deal.version, data=deck_swapped(deal.data))
    page = _page_as(browser, client, live_server, bob.user, width=390)
    page.goto(f"{live_server.url}/matches/{match.pk}/replay/")
    page.wait_for_selector("#checks-summary[data-state]")
    assert page.get_attribute("#check-hand-1", "data-state") == "failed"
    assert page.get_attribute("#check-chain", "data-state") == "failed"
    assert f"event {deal.version}" in page.inner_text("#check-chain")
    assert page.get_attribute("#checks-summary", "data-state") == "failed"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "replay-tampered-390px.png"), full_page=True)


def test_a_player_sees_no_hidden_card_of_the_hand_in_play(browser, client, live_server, alice, bob):
    from tests.games.audit.helpers import match_in_play

    match = match_in_play(alice, bob, moves=5)
    page = _page_as(browser, client, live_server, alice.user)
    page.goto(f"{live_server.url}/matches/{match.pk}/replay/")
    page.wait_for_selector("#checks-summary[data-state]")
    seat = 0 if match.player1_id == alice.pk else 1
    visible = set()
    total = int(page.inner_text("#position").split("/")[1])
    page.keyboard.press("Home")
    for _ in range(total):
        assert (
            page.eval_on_selector_all(
                f'.hand[data-seat="{1 - seat}"] svg.card:not(.back)', "els => els.length"
            )
            == 0
        )
        visible |= set(
            page.eval_on_selector_all("svg.card[data-card]", "els => els.map(e => e.dataset.card)")
        )
        page.keyboard.press("ArrowRight")
    assert page.get_attribute("#check-hand-1", "data-state") == "skipped"
    # Every card shown was in Alice's hand or face up: never the opponent's hidden cards.
    from games.selectors import match_state_at

    state, _ = match_state_at(match=match)
    opponent_hidden = set(state.hands[1 - seat]) - {c for _, c in state.picked_up}
    assert not opponent_hidden & visible
    assert not set(state.stock) & visible
    page.screenshot(path=str(SHOTS / "replay-hand-in-play.png"), full_page=True)


def test_a_player_opens_a_dispute_and_an_organiser_dismisses_it(
    browser, client, live_server, alice, bob, organiser
):
    match = _finished(alice, bob)
    match.organisers.add(organiser)
    page = _page_as(browser, client, live_server, alice.user, width=390)
    page.goto(f"{live_server.url}/matches/{match.pk}/replay/")
    page.select_option("#dispute-hand", "1")
    page.fill("#dispute-statement", "My 7 of hearts was laid off wrongly")
    with page.expect_navigation():
        page.click("#dispute-open")
    assert page.get_attribute("li.dispute", "data-state") == "open"
    assert "My 7 of hearts was laid off wrongly" in page.inner_text("#disputes")
    page.screenshot(path=str(SHOTS / "replay-dispute-opened-390px.png"), full_page=True)

    client.logout()
    desk = _page_as(browser, client, live_server, organiser)
    desk.goto(f"{live_server.url}/matches/{match.pk}/replay/")
    desk.fill(".respond input", "The layoff was legal: see event 20")
    with desk.expect_navigation():
        desk.click('.respond button[data-act="dismiss"]')
    assert desk.get_attribute("li.dispute", "data-state") == "dismissed"
    assert "The layoff was legal" in desk.inner_text("#disputes")
    # The dispute's events are in the replay too, after the match's own.
    desk.keyboard.press("End")
    assert "Dispute #1 dismissed" in desk.inner_text("#event-title")
    desk.screenshot(path=str(SHOTS / "replay-dispute-dismissed.png"), full_page=True)

    # A second dispute on hand 1, settled by a ruling: the hand is voided.
    from games.services.disputes import match_dispute_open

    match_dispute_open(match_id=match.pk, player=bob, hand_number=1, statement="Misdeal")
    desk.reload()
    desk.fill('li.dispute[data-state="open"] .respond input', "Misdeal confirmed")
    with desk.expect_navigation():
        desk.click('li.dispute[data-state="open"] button[data-act="void"]')
    states = desk.eval_on_selector_all("li.dispute", "els => els.map(e => e.dataset.state)")
    assert states == ["dismissed", "ruled"]
    assert "voided" in desk.inner_text("#hand-1")


def test_a_table_match_shows_corrections_struck_through(
    browser, client, live_server, alice, bob, organiser
):
    from tests.games.audit.helpers import table_match_with_corrections

    match = table_match_with_corrections(alice, bob, organiser)
    page = _page_as(browser, client, live_server, bob.user)
    page.goto(f"{live_server.url}/matches/{match.pk}/replay/")
    page.wait_for_selector("#checks-summary[data-state]")
    first = page.inner_text("#hand-1")
    struck = page.inner_text("#hand-1 .correction s")  # names sit in <bdi>
    assert "knocker Alice, deadwood 5 / 20, Alice scores 15" in struck
    assert "deadwood 2 / 20" in first and "deadwood miscounted" in first
    assert "corrected by" in first and " at 20" in first  # who and when
    assert page.inner_html("#hand-2").count("<s>") == 1 and "misdeal" in page.inner_text("#hand-2")
    assert "entered by" in page.inner_text("#hand-3")
    assert page.get_attribute("#check-chain", "data-state") == "ok"
    page.screenshot(path=str(SHOTS / "replay-table-corrections.png"), full_page=True)


def test_times_are_shown_in_the_tournament_s_zone(
    browser, client, live_server, alice, bob, organiser
):
    """An event recorded at 18:30Z in January is shown at 19:30 CET for a Berlin tournament."""
    import datetime as dt
    from unittest import mock

    from tests.games.audit.helpers import tournament_match

    at = dt.datetime(2026, 1, 15, 18, 30, tzinfo=dt.UTC)
    with mock.patch("django.utils.timezone.now", return_value=at):
        _, match = tournament_match(organiser, [alice, bob], time_zone="Europe/Berlin")
    page = _page_as(browser, client, live_server, alice.user, width=390)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/matches/{match.pk}/replay/")
    page.wait_for_selector("#checks-summary[data-state]")
    assert page.inner_text("#time-zone") == "times in Europe/Berlin"
    page.keyboard.press("Home")
    meta = page.inner_text("#event-meta")
    assert "2026-01-15 19:30:00 CET" in meta, meta
    assert "18:30" not in meta and "UTC" not in meta
    assert not page.is_visible("#preset-deals")  # a tournament's deals are random
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "replay-berlin-times-390px.png"), full_page=True)
    assert errors == []
