"""The replay page's data: every event with its actor's name and the table after it, and
no hidden card for a player while a hand is in play."""

import pytest

import eventstore
from games.audit import match_replay_data
from games.services import match_create
from tests.games.audit.helpers import SHORT, finished_match, match_in_play, play_until_hand

pytestmark = pytest.mark.django_db


def test_a_player_of_a_finished_match_sees_every_event_in_full(alice, bob):
    match = finished_match(alice, bob)
    data = match_replay_data(match=match, user=alice.user)
    stored = eventstore.load(stream_id=match.stream_id)
    assert [e["version"] for e in data["events"]] == [e.version for e in stored]
    assert all(e["full"] for e in data["events"])
    assert data["hashed_to"] == len(stored)
    assert [e["hash"] for e in data["events"]] == [e.hash for e in stored]
    moves = [e for e in data["events"] if e["type"] == "CardDiscarded"]
    assert {e["actor_name"] for e in moves} <= {"Alice", "Bob"}
    dealt = next(e for e in data["events"] if e["type"] == "HandDealt")
    assert dealt["actor_name"] == "the server"
    # Once a hand is over both hands are on the table at every step of it.
    at_deal = data["events"][dealt["version"] - 1]["table"]
    # Players by id, as in the match's view (README "Who is who").
    ids = {str(alice.id), str(bob.id)}
    assert {k: len(v) for k, v in at_deal["hands"].items()} == dict.fromkeys(ids, 10)
    assert at_deal["dealer"] in (alice.id, bob.id) and set(at_deal["card_counts"]) == ids
    assert set(data["events"][-1]["table"]["scoresheet"]["totals"]) == ids


def test_a_player_sees_only_their_own_cards_of_the_hand_in_play(alice, bob):
    match = match_in_play(alice, bob, moves=6)
    deal = next(e for e in eventstore.load(stream_id=match.stream_id) if e.type == "HandDealt")
    data = match_replay_data(match=match, user=alice.user)
    seat = data["your_seat"]
    assert seat is not None
    other = str(bob.id if data["players"][seat]["id"] == alice.id else alice.id)
    for entry in data["events"]:
        assert entry["table"]["hands"][other] is None
        if entry["version"] >= deal.version:
            assert entry["hash"] is None and entry["metadata"] is None
        if entry["type"] == "CardDrawn" and entry["data"]["seat"] != seat:
            assert entry["data"]["source"] == "discard" or entry["data"]["card"] is None
    text = str(data)
    assert deal.data["salt"] not in text
    assert "deck" not in data["events"][deal.version - 1]["data"]
    assert data["hashed_to"] == deal.version - 1


def test_a_later_hand_in_play_leaves_earlier_hands_checkable(alice, bob):
    match = match_create(
        player1=alice, player2=bob, seed="later", ruleset={**SHORT, "game_target": 100}
    )
    match = play_until_hand(match, 2)
    data = match_replay_data(match=match, user=bob.user)
    deals = {e["data"]["hand_number"]: e for e in data["events"] if e["type"] == "HandDealt"}
    assert "deck" in deals[1]["data"] and "deck" not in deals[2]["data"]
    assert data["hashed_to"] == deals[2]["version"] - 1
    assert all(e["hash"] is None for e in data["events"] if e["version"] >= deals[2]["version"])


def test_a_spectator_sees_no_hand_in_play_and_no_hidden_card(alice, bob, make_player):
    match = match_in_play(alice, bob, moves=4)
    carol = make_player("Carol")
    data = match_replay_data(match=match, user=carol.user)
    assert data["auditor"] is False
    assert [e["type"] for e in data["events"]] == ["MatchStarted"]
