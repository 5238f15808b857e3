"""Issue 13: a public tournament's matches are for anyone to read through the API, signed
out too, as their pages allow: a finished match in full; a match in play as a spectator
sees it (the hands already over in full, nothing of the hand in play: no deal, no card
drawn from the stock, no hand, no recent hash). Friendlies and private tournaments' matches
stay closed: 401 signed out, 404 to a signed-in stranger of a private tournament."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

import eventstore
from demo.bots import match_play_bots
from games.engine.bot import choose_action
from games.models import Match
from games.selectors import match_state_at
from games.services import match_act
from tests.factories import UserFactory
from tests.games.audit.helpers import finished_match, play_until_hand, tournament_match
from tests.helpers import token_client

pytestmark = pytest.mark.django_db

READS = ("", "events/?limit=500", "replay/?version=1", "verify/", "audit/")


def _get(client, match, path=""):
    return client.get(f"/api/matches/{match.pk}/{path}")


def _readers():
    """A signed-out caller and a signed-in stranger (neither player nor organiser)."""
    return {"anonymous": APIClient(), "stranger": token_client(UserFactory())}


def _live_hand_with_a_stock_draw(match: Match) -> Match:
    """Hand 2 in play with at least one card drawn from the stock in it."""
    match = play_until_hand(match, 2)
    players = {0: match.player1, 1: match.player2}
    for _ in range(40):
        live = _live_events(match)
        if any(e.type == "CardDrawn" and e.data["source"] == "stock" for e in live):
            return match
        state, version = match_state_at(match=match)
        action = choose_action(state, state.turn)
        match = match_act(
            match_id=match.id, player=players[state.turn], action=action, expected_version=version
        ).match
        assert match_state_at(match=match)[0].hand_number == 2, "hand 2 ended: try again"
    raise AssertionError("no card drawn from the stock in 40 moves")


def _live_events(match: Match) -> list:
    """The stored events from the deal of hand 2 on."""
    events = eventstore.load(stream_id=match.stream_id)
    start = next(
        i for i, e in enumerate(events) if e.type == "HandDealt" and e.data["hand_number"] == 2
    )
    return events[start:]


def test_a_finished_public_match_is_read_in_full_by_anyone(alice, bob, organiser):
    _, match = tournament_match(organiser, [alice, bob], is_public=True)
    match = match_play_bots(match_id=match.id, bots_only=False)
    assert match.status == "finished"
    eventstore.checkpoints_take(stream_id=match.stream_id)
    stored = eventstore.load(stream_id=match.stream_id)
    for role, client in _readers().items():
        for path in READS:
            assert _get(client, match, path).status_code == 200, (role, path)
        view = _get(client, match).json()
        assert view["your_cards"] is None and view["receipt"] is None
        assert view["hands"] and all(h.get("deck") and h.get("salt") for h in view["hands"])
        events = _get(client, match, "events/?limit=500").json()
        assert events["count"] == len(stored)
        for shown, raw in zip(events["results"], stored, strict=True):
            if raw.type == "HandDealt":
                assert shown["data"]["deck"] == raw.data["deck"], role
            if raw.type == "CardDrawn":
                assert shown["data"]["card"] == raw.data["card"], role
        assert "receipt" in _get(client, match, "verify/").json()  # nothing is hidden now
        replay = _get(client, match, "replay/?version=3").json()
        assert len(replay["state"]["hands"]) == 2


def test_a_public_match_in_play_shows_no_card_of_the_hand_in_play(alice, bob, organiser):
    _, match = tournament_match(organiser, [alice, bob], ruleset={"game_target": 500})
    match = _live_hand_with_a_stock_draw(match)
    eventstore.checkpoints_take(stream_id=match.stream_id)
    live = _live_events(match)
    deal = live[0]
    drawn = [e.version for e in live if e.type == "CardDrawn" and e.data["source"] == "stock"]
    assert drawn
    for role, client in _readers().items():
        view = _get(client, match)
        assert view.status_code == 200, role
        body = view.json()
        assert body["your_cards"] is None and body["legal_actions"] == []
        assert body["receipt"] is None
        assert [h["hand_number"] for h in body["hands"]] == [1]  # the one over, in full
        assert body["hands"][0]["deck"] and body["hands"][0]["salt"]
        assert deal.data["salt"] not in view.content.decode()

        events = _get(client, match, "events/?limit=500")
        text = events.content.decode()
        assert deal.data["salt"] not in text
        by_version = {e["version"]: e for e in events.json()["results"]}
        assert set(by_version[deal.version]["data"]) == {"hand_number", "dealer", "commitment"}
        for version in drawn:
            assert by_version[version]["data"]["card"] is None, (role, version)
        hand_1 = next(e for e in by_version.values() if e["type"] == "HandDealt")
        assert hand_1["data"]["hand_number"] == 1 and hand_1["data"]["deck"]  # over: in full

        verify = _get(client, match, "verify/").json()
        assert verify["ok"] is True and "receipt" not in verify  # no recent hash
        assert _get(client, match, "replay/?version=3").status_code == 200  # hand 1
        refused = _get(client, match, f"replay/?version={drawn[-1]}")
        assert refused.status_code == 409, role
        assert deal.data["salt"] not in refused.content.decode()
        assert _get(client, match, "audit/").status_code == 403
    # Its players still get their receipt and their own cards.
    player = token_client(alice.user)
    assert "receipt" in _get(player, match, "verify/").json()
    assert _get(player, match).json()["your_cards"]


def test_a_friendly_stays_closed(alice, bob):
    match = finished_match(alice, bob, seed="friendly")
    readers = _readers()
    for path in READS:
        response = _get(readers["anonymous"], match, path)
        assert response.status_code == 401, path
        assert response.json()["error"]["code"] == "not_authenticated"
    # A signed-in onlooker follows it as before, but never in full: no deck, no replay.
    stranger = readers["stranger"]
    events = _get(stranger, match, "events/?limit=500").json()["results"]
    deals = [e for e in events if e["type"] == "HandDealt"]
    assert deals and all("deck" not in e["data"] for e in deals)
    assert all("deck" not in h for h in _get(stranger, match).json()["hands"])
    assert _get(stranger, match, "replay/?version=3").status_code == 403
    assert _get(stranger, match, "audit/").status_code == 403


def test_a_private_tournament_s_match_stays_closed(alice, bob, organiser):
    _, match = tournament_match(organiser, [alice, bob], is_public=False)
    match = match_play_bots(match_id=match.id, bots_only=False)
    readers = _readers()
    for path in READS:
        assert _get(readers["anonymous"], match, path).status_code == 401, path
        assert _get(readers["stranger"], match, path).status_code == 404, path
    assert _get(token_client(alice.user), match).status_code == 200


def test_an_unknown_match_is_a_401_signed_out(api_client):
    unknown = "00000000-0000-0000-0000-000000000000"
    for path in READS:
        assert api_client.get(f"/api/matches/{unknown}/{path}").status_code == 401
    assert api_client.get("/api/matches/not-a-uuid/").status_code == 401
    assert api_client.get("/api/matches/").status_code == 401  # lists: signed in
