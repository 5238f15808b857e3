"""GET /api/matches/{id}/stream/: each viewer's redacted events (the events API's own
selector) and a fresh view after each batch; a player's stream never shows a card of the
opponent's hand or of the stock."""

from __future__ import annotations

import re

import pytest

import eventstore
from games import selectors, services
from players.services import player_create
from tests.games.apis.helpers import choose
from tests.helpers import token_client
from tests.live.helpers import Follower, written

pytestmark = pytest.mark.django_db(transaction=True)


def _token(user) -> str:
    from rest_framework.authtoken.models import Token

    return Token.objects.get_or_create(user=user)[0].key


def _play(match, players, moves: int) -> None:
    """`moves` actions, each by the player to move, chosen from their own view. A knock
    is played as a discard of the same card, so the hand stays in play: once it ends the
    events API reveals its deck and draws, and these tests compare the stream with what
    may be seen while the hand is in play."""
    for _ in range(moves):
        match.refresh_from_db()
        if match.status != "in_progress":
            return
        for player in players:
            view = selectors.match_view_for(match=match, user=player.user)
            if view["legal_actions"]:
                action = choose(view)
                if action["type"] == "knock":
                    action = {"type": "discard", "card": action["card"]}
                written(
                    lambda p=player, a=action: services.match_act(
                        match_id=match.pk, player=p, action=a
                    )
                )
                break


def _secret_cards_of(match, seat: int) -> set[str]:
    """Cards dealt to `seat` in the hand in play that it still holds and that no stored
    event other than the deal names: nobody else may have seen them."""
    raw = eventstore.load(stream_id=match.stream_id)
    deal = [e for e in raw if e.type == "HandDealt"][-1]
    deck, dealer = deal.data["deck"], deal.data["dealer"]
    dealt = set(deck[1:20:2] if seat == dealer else deck[0:20:2])
    named = {
        card
        for e in raw
        if e.type != "HandDealt"
        for card in re.findall(r"\b[A2-9TJQK][CDHS]\b", str(e.data))
    }
    state, _ = selectors.match_state_at(match=match)
    held = set(state.hands[seat]) if hasattr(state, "hands") else dealt
    return (dealt & held) - named


def test_a_player_follows_the_match_and_never_sees_the_opponents_cards(server):
    alice = player_create(name="Alice", username="alice", password="secret-pass-1")
    bob = player_create(name="Bob", username="bob", password="secret-pass-1")
    match = services.match_create(player1=alice, player2=bob)
    url = f"{server}/api/matches/{match.pk}/stream/"
    follower = Follower(url, headers={"Authorization": f"Token {_token(alice.user)}"})
    assert follower.status == 200
    first = [follower.next() for _ in range(3)]  # MatchStarted, HandDealt, then her view
    assert [m.event for m in first] == ["event", "event", "view"]
    _play(match, [alice, bob], 8)
    match.refresh_from_db()
    # As the events API shows them: players by id (README "Who is who").
    expected = selectors.match_events_for(match=match, user=alice.user, as_players=True)
    messages = []
    while not messages or messages[-1].id != expected[-1]["version"]:
        message = follower.next()
        if message.event == "event":
            messages.append(message)
    streamed = [m.data for m in first[:2]] + [m.data for m in messages]
    assert [e["version"] for e in streamed] == [e["version"] for e in expected]
    assert [e["data"] for e in streamed] == [e["data"] for e in expected]
    view = follower.next()
    assert view.event == "view"
    follower.close()

    mine = selectors.match_view_for(match=match, user=alice.user)["your_cards"]
    assert view.data["your_cards"] == mine
    bob_seat = match.seat_of(bob.pk)
    secret = _secret_cards_of(match, bob_seat)
    assert secret, "the test should leave Bob some cards only he has seen"
    text = str(streamed) + str(view.data) + str([m.data for m in first])
    for card in secret:
        assert f"'{card}'" not in text, f"Bob's {card} reached Alice"
    for event in streamed:
        assert "deck" not in event["data"] and "salt" not in event["data"]


def test_resuming_after_a_reconnect_sends_only_what_came_since(server):
    alice = player_create(name="Alice", username="alice", password="secret-pass-1")
    bob = player_create(name="Bob", username="bob", password="secret-pass-1")
    match = services.match_create(player1=alice, player2=bob)
    match.refresh_from_db()
    at = match.version
    _play(match, [alice, bob], 3)
    follower = Follower(
        f"{server}/api/matches/{match.pk}/stream/",
        headers={"Authorization": f"Token {_token(bob.user)}", "Last-Event-ID": str(at)},
    )
    match.refresh_from_db()
    got = []
    while not got or got[-1].id != match.version:
        message = follower.next()
        if message.event == "event":
            got.append(message)
    assert [m.id for m in got] == list(range(at + 1, match.version + 1))
    follower.close()


def test_anonymous_is_401_and_an_unknown_match_404(server):
    alice = player_create(name="Alice", username="alice", password="secret-pass-1")
    bob = player_create(name="Bob", username="bob", password="secret-pass-1")
    match = services.match_create(player1=alice, player2=bob)
    anonymous = Follower(f"{server}/api/matches/{match.pk}/stream/")
    assert anonymous.status == 401
    anonymous.close()
    client = token_client(alice.user)
    assert client.get(f"/api/matches/{match.pk}/").status_code == 200
    missing = Follower(
        f"{server}/api/matches/not-a-match/stream/",
        headers={"Authorization": f"Token {_token(alice.user)}"},
    )
    assert missing.status == 404
    missing.close()


def _until_version(follower: Follower, version: int) -> list:
    """Every message up to the event at `version` and the view after it."""
    messages = []
    while not messages or messages[-1].event != "view" or messages[-1].data["version"] < version:
        messages.append(follower.next())
    return messages


def test_followers_fed_together_each_get_only_their_own_audiences_bytes(server):
    """Both players (Alice on two devices) follow the match at once: one read per commit
    feeds them all, each audience's bytes made once (core.live_fanout). Alice's two
    streams are the same; neither player is ever sent a card the other holds unseen."""
    alice = player_create(name="Alice", username="alice", password="secret-pass-1")
    bob = player_create(name="Bob", username="bob", password="secret-pass-1")
    match = services.match_create(player1=alice, player2=bob)
    url = f"{server}/api/matches/{match.pk}/stream/"
    followers = {
        name: Follower(url, headers={"Authorization": f"Token {_token(player.user)}"})
        for name, player in (("alice", alice), ("alice again", alice), ("bob", bob))
    }
    try:
        for follower in followers.values():
            assert [m.event for m in follower.take(1, "view")]  # caught up: fed from here
        _play(match, [alice, bob], 8)
        match.refresh_from_db()
        got = {name: _until_version(f, match.version) for name, f in followers.items()}
    finally:
        for follower in followers.values():
            follower.close()
    assert [m.data for m in got["alice"]] == [m.data for m in got["alice again"]]
    for name, player, opponent in (("alice", alice, bob), ("bob", bob, alice)):
        events = [m for m in got[name] if m.event == "event"]
        assert events and events[-1].id == match.version
        expected = selectors.match_events_for(match=match, user=player.user, as_players=True)
        expected = [e for e in expected if e["version"] > 2]  # after the first view
        assert [(m.id, m.data["data"]) for m in events] == [
            (e["version"], e["data"]) for e in expected
        ]
        view = got[name][-1].data
        assert (
            view["your_cards"]
            == selectors.match_view_for(match=match, user=player.user)["your_cards"]
        )
        secret = _secret_cards_of(match, match.seat_of(opponent.pk))
        assert secret, "the test should leave each player some cards only they have seen"
        text = str([m.data for m in got[name]])
        for card in secret:
            assert f"'{card}'" not in text, f"{opponent.name}'s {card} reached {name}"
