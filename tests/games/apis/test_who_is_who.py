"""One convention for who is who (README "Who is who"): a field that names a player holds a
player id; `seat` (0/1) only where a seat is meant, with `player` (its id) beside it; values
per player are dicts by player id; the same in the match view, the events API and the
replay; messages name players, never "seat 1"."""

from __future__ import annotations

import pytest

from tests.games.apis.helpers import MELDS, act, preset_deck

pytestmark = pytest.mark.django_db

PLAYER_FIELDS = ("dealer", "first_dealer", "knocker", "winner")


@pytest.fixture
def match(organiser_client, alice, bob):
    """Alice deals first (seat 0); Bob (seat 1) can knock at once with the preset deal."""
    body = {
        "player1": alice.id,
        "player2": bob.id,
        "first_dealer": alice.id,
        "decks": [preset_deck(), preset_deck()],
    }
    response = organiser_client.post("/api/matches/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def _events(client, match_id):
    response = client.get(f"/api/matches/{match_id}/events/?limit=500")
    assert response.status_code == 200, response.json()
    return response.json()["results"]


def test_the_view_events_and_replay_name_players_by_id(match, alice, bob, bob_client):
    ids, seats = {alice.id, bob.id}, {alice.id: 0, bob.id: 1}
    assert (match["dealer"], match["turn"]) == (alice.id, bob.id)
    assert act(bob_client, match["id"], {"type": "draw", "source": "discard"}).status_code == 201
    knocked = act(bob_client, match["id"], {"type": "knock", "card": "KD", "melds": MELDS})
    assert knocked.status_code == 201, knocked.json()
    view = knocked.json()
    hand = view["hands"][0]
    assert (hand["knocker"], hand["winner"], hand["dealer"]) == (bob.id, bob.id, alice.id)
    assert (hand["knock"]["seat"], hand["knock"]["player"]) == (1, bob.id)
    assert (hand["defence"]["seat"], hand["defence"]["player"]) == (0, alice.id)
    assert set(hand["hands"]) == {str(i) for i in ids}

    events = _events(bob_client, match["id"])
    assert events, "no events"
    for e in events:
        data = e["data"]
        for key in PLAYER_FIELDS:
            if key in data:
                assert data[key] in ids, (e["type"], key, data[key])
        if "seat" in data:
            assert data["seat"] in (0, 1) and seats[data["player"]] == data["seat"], e
    by_type = {e["type"]: e["data"] for e in events}
    assert by_type["MatchStarted"]["first_dealer"] == alice.id
    first_deal = next(e["data"] for e in events if e["type"] == "HandDealt")
    assert first_deal["dealer"] == alice.id
    assert by_type["CardDrawn"]["player"] == bob.id
    assert by_type["Knocked"]["player"] == bob.id and by_type["Knocked"]["seat"] == 1
    assert by_type["HandScored"]["knocker"] == bob.id

    replay = bob_client.get(f"/api/matches/{match['id']}/replay/?version=3").json()["state"]
    assert (replay["dealer"], replay["turn"]) == (alice.id, bob.id)
    assert set(replay["hands"]) == set(replay["card_counts"]) == {str(i) for i in ids}
    assert replay["picked_up"] == [{"player": bob.id, "card": "AS"}]
    assert set(replay["scoresheet"]["totals"]) == {str(i) for i in ids}


def test_game_won_and_rulings_name_players_by_id(match, alice, bob, organiser_client):
    url = f"/api/matches/{match['id']}/rulings/"
    body = {"type": "adjust_score", "reason": "miscount", "player": bob.id, "game": 1}
    assert organiser_client.post(url, {**body, "points": 150}, format="json").status_code == 201
    body = {"type": "forfeit", "reason": "no show", "player": alice.id}
    response = organiser_client.post(url, body, format="json")
    assert response.status_code == 201, response.json()
    rulings = response.json()["rulings"]
    assert (rulings[0]["seat"], rulings[0]["player"]) == (1, bob.id)
    assert rulings[-1]["winner"] == alice.id and "seat" not in rulings[-1]
    events = {e["type"]: e["data"] for e in _events(organiser_client, match["id"])}
    adjusted = events["ScoreAdjusted"]
    assert (adjusted["seat"], adjusted["player"]) == (1, bob.id)
    assert events["MatchForfeited"]["winner"] == alice.id
    assert events["MatchFinished"]["winner"] == alice.id
    won = events.get("GameWon")
    if won is not None:  # 150 points close game 1: scores by player id
        assert set(won["scores"]) == set(won["bonuses"]) == {str(alice.id), str(bob.id)}
        assert won["winner"] == bob.id


def test_not_your_turn_names_the_player(match, alice_client):
    response = act(alice_client, match["id"], {"type": "pass"})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "not_your_turn"
    assert error["message"] == "it is Bob's move" and "seat" not in error["message"]


@pytest.fixture
def table_match(organiser_client, alice, bob):
    body = {"player1": alice.id, "player2": bob.id, "mode": "table"}
    response = organiser_client.post("/api/matches/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_a_table_hand_names_the_knocker_by_player_id(
    table_match, alice, bob, organiser_client, make_player
):
    url = f"/api/matches/{table_match['id']}/hands/"
    entry = {"knocker": bob.id, "gin": False, "knocker_deadwood": 4, "defender_deadwood": 20}
    response = organiser_client.post(url, entry, format="json")
    assert response.status_code == 201, response.json()
    hand = response.json()["hands"][0]
    assert (hand["knocker"], hand["winner"], hand["points"]) == (bob.id, bob.id, 16)
    recorded = {e["type"]: e["data"] for e in _events(organiser_client, table_match["id"])}
    assert recorded["HandRecorded"]["knocker"] == bob.id
    # A knocker who does not play in the match: a documented code, the field named.
    stranger = make_player()
    refused = organiser_client.post(url, {**entry, "knocker": stranger.id}, format="json")
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["code"] == "validation_error" and error["reason"] == "not_a_player"
    assert "knocker" in error["fields"]
    # No such player at all: the same code.
    missing = organiser_client.post(url, {**entry, "knocker": 999_999}, format="json")
    assert missing.status_code == 400
    assert missing.json()["error"]["code"] == "validation_error"
