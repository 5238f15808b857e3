"""Who sees what, checked over complete bot matches played through the API.

At every state of every match, for each player, an organiser and a staff user: neither the
match view nor the new part of the event feed contains a card of the stock or of a hand the
viewer may not see while the hand is in play (cards taken face up from the discard pile are
public). Once a hand has ended its record (both hands, deck, salt) is visible to the players
and organisers, and the deck and salt match the commitment published at the deal.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
import requests
import schemathesis
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from config.wsgi import application
from games.engine.state import commitment
from games.models import Match
from games.selectors import match_state_at
from tests.games.apis.helpers import choose
from tests.helpers import token_client

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("wsgi_in_test_transaction")]

CARD = re.compile(r"^[A2-9TJQK][CDHS]$")
IN_PLAY = ("upcard", "draw", "discard")


def cards_in(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    return set()


def hidden_from(state, seat: int | None) -> set[str]:
    """The cards `seat` (None: an organiser or spectator) must not see now."""
    public = {card for _, card in state.picked_up}
    hidden = set(state.stock)
    for s in (0, 1):
        if s != seat:
            hidden |= set(state.hands[s]) - public
    return hidden


class Schema:
    """Checks responses against the OpenAPI schema, over whole matches (finished hands,
    closed games, winners) that fuzzing rarely reaches."""

    def __init__(self) -> None:
        self.schema = schemathesis.openapi.from_wsgi("/api/schema/", application)

    def check(self, method: str, path: str, response) -> None:
        url = f"http://testserver{response.request['PATH_INFO']}"
        as_sent = schemathesis.Response(
            status_code=response.status_code,
            headers={"content-type": [response["Content-Type"]]},
            content=response.content,
            request=requests.Request(method, url).prepare(),
            elapsed=0.0,
            verify=False,
        )
        self.schema[path][method].validate_response(as_sent)


class Viewer:
    """One API user following a match: its view and its event feed, read incrementally."""

    def __init__(self, name: str, client, seat: int | None) -> None:
        self.name, self.client, self.seat = name, client, seat
        self.after = 0
        self.hand = 0  # the hand the feed is in, from the HandDealt events read so far

    def check(self, match_id: str, state, url: str, schema: Schema | None) -> dict[str, Any]:
        response = self.client.get(url)
        if schema:
            schema.check("GET", "/api/matches/{match_id}/", response)
        view = response.json()
        in_play = state.phase in IN_PLAY
        hidden = hidden_from(state, self.seat) if in_play else set()
        table = {k: v for k, v in view.items() if k != "hands"}
        leaked = cards_in(table) & hidden
        assert not leaked, f"{self.name} sees {leaked} in the view at v{view['version']}"
        assert all(h["hand_number"] < state.hand_number or not in_play for h in view["hands"])
        if self.seat is not None and in_play:
            assert sorted(view["your_cards"]) == sorted(state.hands[self.seat])
        response = self.client.get(f"{url}events/?after={self.after}&limit=500")
        if schema:
            schema.check("GET", "/api/matches/{match_id}/events/", response)
        feed = response.json()
        for event in feed["results"]:
            if event["type"] == "HandDealt":
                self.hand = event["data"]["hand_number"]
                secret = {"deck", "salt"} & set(event["data"])
                live = in_play and self.hand == state.hand_number
                assert not (secret and live), f"{self.name} sees the {secret} of a live hand"
            if in_play and self.hand == state.hand_number:
                leaked = cards_in(event["data"]) & hidden
                assert not leaked, f"{self.name} sees {leaked} in {event}"
            self.after = event["version"]
        return view


def check_finished_hands(view: dict[str, Any], *, auditor: bool) -> None:
    for record in view["hands"]:
        if record["kind"] == "voided" or "commitment" not in record:
            continue
        if auditor:
            assert len(record["deck"]) == 52 and record["salt"]
            assert commitment(record["deck"], record["salt"]) == record["commitment"]
            assert len(record["hands"]) == 2
        else:
            assert "deck" not in record and "salt" not in record and "hands" not in record


def play_and_watch(organiser_client, players, ruleset, seed, max_steps=4000) -> dict:
    alice, bob, spectator_player = players
    staff = get_user_model().objects.create_user(username=f"staff-{seed}", is_staff=True)
    created = organiser_client.post(
        "/api/matches/",
        {"player1": alice.id, "player2": bob.id, "ruleset": ruleset, "seed": seed},
        format="json",
    )
    assert created.status_code == 201, created.json()
    match_id = created.json()["id"]
    url = f"/api/matches/{match_id}/"
    seats = {alice.id: 0, bob.id: 1}
    viewers = [
        Viewer("player 1", token_client(alice.user), 0),
        Viewer("player 2", token_client(bob.user), 1),
        Viewer("organiser", organiser_client, None),
        Viewer("staff", token_client(staff), None),
    ]
    spectator = token_client(spectator_player.user)
    match = Match.objects.get(pk=match_id)
    schema = Schema()
    hands_seen = 0
    for _ in range(max_steps):
        state, _ = match_state_at(match=match)
        # The schema is checked for one player and the organiser (the others look alike).
        views = [
            v.check(match_id, state, url, schema if i in (0, 2) else None)
            for i, v in enumerate(viewers)
        ]
        if views[0]["status"] == "finished":
            break
        if len(views[0]["hands"]) > hands_seen:
            hands_seen = len(views[0]["hands"])
            for view in views:
                check_finished_hands(view, auditor=True)
            check_finished_hands(spectator.get(url).json(), auditor=False)
        mover = views[seats[views[0]["turn"]]]
        response = viewers[seats[views[0]["turn"]]].client.post(
            f"{url}actions/", {**choose(mover), "expected_version": mover["version"]}, format="json"
        )
        assert response.status_code == 201, response.json()
        schema.check("POST", "/api/matches/{match_id}/actions/", response)
    else:
        pytest.fail("the match did not finish")
    return views[0]


@pytest.fixture
def three_players(make_player):
    return make_player("Ann"), make_player("Ben"), make_player("Cy (spectator)")


def test_plain_gin_match_never_leaks(organiser_client, three_players):
    final = play_and_watch(
        organiser_client, three_players, {"games": 1, "game_target": 40}, seed="info-1"
    )
    assert final["winner"] in {p.id for p in three_players[:2]}
    assert final["scoresheet"]["games"][0]["closed"]


def test_hollywood_match_never_leaks(organiser_client, three_players):
    final = play_and_watch(organiser_client, three_players, {"game_target": 30}, seed="info-2")
    games = final["scoresheet"]["games"]
    assert len(games) == 3 and all(g["closed"] for g in games)
    assert len(final["hands"]) >= 3


# -- hands the end of the match (or a ruling) cuts short -------------------------------------

# How hand 1 is cut short: who ends it (an organiser's ruling or Alice's own action) and
# the body sent, given the players' ids (Alice, Bob).
CUT_SHORT = {
    "cancel": ("organiser", lambda a, b: {"type": "cancel", "reason": "round re-paired"}),
    "forfeit": ("organiser", lambda a, b: {"type": "forfeit", "reason": "no show", "player": b}),
    "resign ruling": (
        "organiser",
        lambda a, b: {"type": "resign", "reason": "phoned in", "player": a},
    ),
    "resign": ("alice", lambda a, b: {"type": "resign"}),
    "void_hand": ("organiser", lambda a, b: {"type": "void_hand", "reason": "card exposed"}),
}


def _hand_one_mid_play(organiser_client, alice, bob) -> tuple[str, dict[int, list[str]]]:
    """A match with Alice dealing; both players pass the upcard and draw from the stock, so
    hand 1 is in play with two cards drawn face down. Returns its id and the cards each
    player (by id) was dealt, as their own views showed them."""
    created = organiser_client.post(
        "/api/matches/",
        {"player1": alice.id, "player2": bob.id, "first_dealer": alice.id, "seed": "cut-short"},
        format="json",
    )
    assert created.status_code == 201, created.json()
    url = f"/api/matches/{created.json()['id']}/"
    clients = {alice.id: token_client(alice.user), bob.id: token_client(bob.user)}
    dealt = {pid: sorted(c.get(url).json()["your_cards"]) for pid, c in clients.items()}
    for _ in range(6):  # pass, pass, then draw and discard twice: non-dealer, dealer
        turn = organiser_client.get(url).json()["turn"]
        legal = clients[turn].get(url).json()["legal_actions"]
        if {"type": "pass"} in legal:
            body = {"type": "pass"}
        elif {"type": "draw", "source": "stock"} in legal:
            body = {"type": "draw", "source": "stock"}
        else:
            body = next(a for a in legal if a["type"] == "discard")
        response = clients[turn].post(f"{url}actions/", body, format="json")
        assert response.status_code == 201, response.json()
    view = organiser_client.get(url).json()
    assert view["hand_number"] == 1 and view["phase"] in IN_PLAY, view["phase"]
    return created.json()["id"], dealt


@pytest.mark.parametrize("ending", sorted(CUT_SHORT))
def test_a_hand_cut_short_is_revealed_to_players_and_organisers_only(
    organiser_client, three_players, ending
):
    """A hand that can no longer go on (the match cancelled, forfeited or resigned during
    it, or the hand voided) is over: its players and organisers get its record (deck, salt,
    both hands) in the event feed, the replay and the match view, exactly as for a hand
    that ended in play, and the deck checks out against the commitment published at the
    deal and deals the cards each player held (RULES 3 Decision, dealing order: even
    positions 0-18 to the non-dealer, odd 1-19 to the dealer, 20 the upcard). RULES.md
    says nothing more about voided or cancelled hands. Nobody else sees any of it."""
    alice, bob, outsider = three_players
    staff = get_user_model().objects.create_user(username="staff-cut", is_staff=True)
    match_id, dealt = _hand_one_mid_play(organiser_client, alice, bob)
    url = f"/api/matches/{match_id}/"
    entitled = {
        "alice": token_client(alice.user),
        "bob": token_client(bob.user),
        "organiser": organiser_client,
        "staff": token_client(staff),
    }
    # Before: hand 1 is in play, its deal is hidden from everybody, no replay of it.
    for client in entitled.values():
        deal = client.get(f"{url}events/").json()["results"][1]
        assert set(deal["data"]) == {"hand_number", "dealer", "commitment"}
        assert client.get(f"{url}replay/?version=2").status_code == 409

    who, body = CUT_SHORT[ending]
    body = body(alice.id, bob.id)
    if who == "alice":
        ruled = entitled["alice"].post(f"{url}actions/", body, format="json")
    else:
        ruled = organiser_client.post(f"{url}rulings/", body, format="json")
    assert ruled.status_code == 201, ruled.json()
    over = ending != "void_hand"
    assert (ruled.json()["status"] == "finished") is over

    schema = Schema()
    for name, client in entitled.items():
        feed = client.get(f"{url}events/?limit=500").json()["results"]
        deal = next(e for e in feed if e["type"] == "HandDealt")["data"]
        deck, salt = deal["deck"], deal["salt"]
        assert commitment(deck, salt) == deal["commitment"], name
        assert sorted(deck[0:20:2]) == dealt[bob.id] and sorted(deck[1:20:2]) == dealt[alice.id]
        draws = [e["data"] for e in feed if e["type"] == "CardDrawn"]
        assert [d["card"] for d in draws] == deck[21:23], name  # both stock draws, shown
        # Every version of hand 1 replays, and shows the deck it was dealt from.
        ends = ("HandVoided", "MatchFinished", "MatchCancelled")
        end = next(e["version"] for e in feed if e["type"] in ends)
        for version in range(2, end + 1):
            replayed = client.get(f"{url}replay/?version={version}")
            assert replayed.status_code == 200, (name, version, replayed.json())
            if version < end:
                assert replayed.json()["state"]["deck"] == deck
        response = client.get(url)
        if name in ("alice", "organiser"):
            schema.check("GET", "/api/matches/{match_id}/", response)
        view = response.json()
        record = view["hands"][0]
        assert record["kind"] == ("unfinished" if over else "voided"), name
        assert record["deck"] == deck and record["salt"] == salt
        assert commitment(record["deck"], record["salt"]) == record["commitment"]
        check_finished_hands(view, auditor=True)
        if not over:
            # Hand 2 is dealt and in play: still hidden, and not replayable.
            second = [e for e in feed if e["type"] == "HandDealt"][1]["data"]
            assert set(second) == {"hand_number", "dealer", "commitment"}
            last = feed[-1]["version"]
            assert client.get(f"{url}replay/?version={last}").status_code == 409

    # Another player of the club: the commitment only, no draws, no replay, no record.
    other = token_client(outsider.user)
    feed = other.get(f"{url}events/?limit=500").json()["results"]
    assert all(
        set(e["data"]) == {"hand_number", "dealer", "commitment"}
        for e in feed
        if e["type"] == "HandDealt"
    )
    assert all(e["data"]["card"] is None for e in feed if e["type"] == "CardDrawn")
    assert other.get(f"{url}replay/?version=2").status_code == 403
    check_finished_hands(other.get(url).json(), auditor=False)
    assert salt not in str(other.get(url).json()) and salt not in str(feed)
    # Nobody signed in: nothing at all.
    anonymous = APIClient()
    for path in ("", "events/", "replay/?version=2"):
        response = anonymous.get(f"{url}{path}")
        assert response.status_code == 401, path
        assert salt.encode() not in response.content
