"""Forbidden pairs and hand-made pairings, decisions of the tournament (events), through the
API: pairs kept apart where a valid pairing exists, a round robin refuses them, a hand-set
round that repeats a pairing or breaks a forbidden pair is 409 unless confirmed."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.helpers import forfeit_round, make_bots, make_tournament
from tournaments import services
from tournaments.models import Pairing
from tournaments.selectors import tournament_stream_events

pytestmark = pytest.mark.django_db


@pytest.fixture
def org_client(api_client: Any, organiser: Any) -> Any:
    api_client.force_authenticate(organiser)
    return api_client


def _pairs(t: Any, number: int) -> set[frozenset[int]]:
    return {
        frozenset((p.player1_id, p.player2_id))
        for p in Pairing.objects.filter(round__tournament=t, round__number=number)
        if p.player2_id
    }


def test_a_forbidden_pair_never_meets_in_a_swiss_where_it_can_be_avoided(
    organiser: Any, org_client: Any, jobs: Any
) -> None:
    players = make_bots(6)
    t = make_tournament(organiser, players, rounds=3)
    url = f"/api/tournaments/{t.pk}/forbidden-pairs/"
    # Seeds 1 and 4 would meet in round 1 (top half against bottom half).
    a, b = players[0].pk, players[3].pk
    added = org_client.post(url, {"players": [b, a], "reason": "one household"}, format="json")
    assert added.status_code == 201, added.json()
    assert added.json()["results"] == [[min(a, b), max(a, b)]]
    assert org_client.get(url).json()["results"] == [[min(a, b), max(a, b)]]
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    for number in (1, 2, 3):
        assert frozenset((a, b)) not in _pairs(t, number)
        with jobs():
            forfeit_round(t, organiser)
    kinds = [e.type for e in tournament_stream_events(tournament=t)]
    assert "ForbiddenPairAdded" in kinds
    removed = org_client.delete(url, {"players": [a, b]}, format="json")
    assert removed.status_code == 200 and removed.json()["results"] == []


def test_a_round_robin_refuses_forbidden_pairs_and_strangers_see_none(
    organiser: Any, org_client: Any, api_client: Any
) -> None:
    players = make_bots(4)
    t = make_tournament(organiser, players, format="round_robin", rounds=None)
    url = f"/api/tournaments/{t.pk}/forbidden-pairs/"
    refused = org_client.post(url, {"players": [players[0].pk, players[1].pk]}, format="json")
    assert refused.status_code == 409
    assert refused.json()["error"]["reason"] == "round_robin"
    api_client.force_authenticate(None)
    assert api_client.get(url).status_code in (401, 403)


def test_hand_pairings_refuse_a_rematch_unless_confirmed(
    organiser: Any, org_client: Any, jobs: Any
) -> None:
    players = make_bots(4)
    t = make_tournament(organiser, players, rounds=3)
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    first = sorted(_pairs(t, 1), key=sorted)
    with jobs():
        forfeit_round(t, organiser)
    url = f"/api/tournaments/{t.pk}/rounds/2/pairings/"
    again = [sorted(pair) for pair in first]  # the same pairs as round 1
    before = _pairs(t, 2)
    refused = org_client.post(url, {"pairs": again, "reason": "by hand"}, format="json")
    assert refused.status_code == 409, refused.json()
    assert refused.json()["error"]["reason"] == "rematch"
    assert {tuple(c["players"]) for c in refused.json()["error"]["conflicts"]} == {
        tuple(p) for p in again
    }
    assert _pairs(t, 2) == before  # refused: nothing written
    kept = org_client.post(
        url, {"pairs": again, "reason": "by hand", "confirm": True}, format="json"
    )
    assert kept.status_code == 200, kept.json()
    assert _pairs(t, 2) == set(first)
    last = tournament_stream_events(tournament=t)[-1]
    assert last.type == "RoundRepaired" and last.data["by_hand"] is True
    assert {tuple(c["players"]) for c in last.data["confirmed"]} == {tuple(p) for p in again}


def test_hand_pairings_must_name_everyone_once(organiser: Any, org_client: Any, jobs: Any) -> None:
    players = make_bots(4)
    t = make_tournament(organiser, players, rounds=2)
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    url = f"/api/tournaments/{t.pk}/rounds/1/pairings/"
    ids = [p.pk for p in players]
    twice = org_client.post(
        url, {"pairs": [[ids[0], ids[1]], [ids[0], ids[2]]], "reason": "x"}, format="json"
    )
    assert twice.status_code == 400
    assert twice.json()["error"]["code"] == "validation_error"


def test_a_double_elimination_bracket_is_data_a_client_can_draw(
    organiser: Any, org_client: Any, api_client: Any, jobs: Any
) -> None:
    players = make_bots(5)
    t = make_tournament(organiser, players, format="double_elimination", rounds=None)
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    bracket = api_client.get(f"/api/tournaments/{t.pk}/bracket/").json()
    ids = {m["id"] for m in bracket["matches"]}
    assert {"W1-1", "L1-1", "GF1", "GF2"} <= ids and bracket["champion"] is None
    w1 = [m for m in bracket["matches"] if m["id"].startswith("W1-")]
    # 5 players in a bracket of 8: the top three seeds have byes.
    assert sum(m["status"] == "bye" for m in w1) == 3
    playing = {frozenset(m["players"]) for m in w1 if m["status"] == "ready"}
    assert playing == _pairs(t, 1)
    for _ in range(20):
        t.refresh_from_db()
        if t.status == "finished":
            break
        with jobs():
            forfeit_round(t, organiser)
    final = api_client.get(f"/api/tournaments/{t.pk}/bracket/").json()
    assert final["champion"] in {p.pk for p in players}
    assert sorted(p for group in final["places"] for p in group) == sorted(p.pk for p in players)
    swiss = make_tournament(organiser, make_bots(2, prefix="S"), rounds=1)
    assert api_client.get(f"/api/tournaments/{swiss.pk}/bracket/").json()["matches"] == []
