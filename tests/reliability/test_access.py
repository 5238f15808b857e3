"""Issue 14 items 8 and 12: who may read a match through the API (the access matrix over
every match endpoint, for a match of a private and of a public tournament), and matches
whose deals an organiser chose are marked so and never a tournament's."""

from __future__ import annotations

import pytest

from games.models import MatchDealPlan
from tests.reliability.helpers import role_clients, tournament_with_a_match
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db


def endpoints(match_id: str) -> dict[str, str]:
    return {
        "detail": f"/api/matches/{match_id}/",
        "events": f"/api/matches/{match_id}/events/",
        "verify": f"/api/matches/{match_id}/verify/",
        "replay": f"/api/matches/{match_id}/replay/?version=1",
    }


# Who sees a private tournament's match: its players, its organisers, staff.
PRIVATE = {
    "anonymous": 401,
    "player": "seen",
    "stranger": 404,
    "organiser": "seen",
    "other_organiser": 404,
    "staff": "seen",
}
# A public tournament's match: anyone signed in.
PUBLIC = {**PRIVATE, "stranger": "seen", "other_organiser": "seen"}


@pytest.mark.parametrize(("is_public", "matrix"), [(False, PRIVATE), (True, PUBLIC)])
def test_the_access_matrix(is_public, matrix, organiser, make_player):
    players = [make_player("Pia"), make_player("Quinn")]
    _, match_id = tournament_with_a_match(organiser=organiser, players=players, is_public=is_public)
    clients = role_clients(player=players[0], organiser=organiser)
    for role, expected in matrix.items():
        client = clients[role]
        for name, path in endpoints(match_id).items():
            status = client.get(path).status_code
            if expected == "seen":
                # Seen: the replay may still be refused (403 to non-auditors, 409 for a
                # hand in play), but never as if the match did not exist.
                assert status not in (401, 404), (role, name, status)
                if name != "replay":
                    assert status == 200, (role, name, status)
            else:
                assert status == expected, (role, name, status)
        listed = client.get("/api/matches/?limit=500")
        if expected == 401:
            assert listed.status_code == 401
            continue
        ids = {m["id"] for m in listed.json()["results"]}
        assert (match_id in ids) == (expected == "seen"), (role, "list")


def test_a_hidden_match_s_actions_do_not_leak_it(organiser, make_player):
    players = [make_player("Pia"), make_player("Quinn")]
    _, match_id = tournament_with_a_match(organiser=organiser, players=players, is_public=False)
    stranger = role_clients(player=players[0], organiser=organiser)["stranger"]
    response = stranger.get(f"/api/matches/{match_id}/")
    assert response.json()["error"]["code"] == "not_found"
    unknown = stranger.get("/api/matches/00000000-0000-0000-0000-000000000000/")
    assert response.json() == unknown.json()


# --- preset deals ---------------------------------------------------------------------------


def test_a_match_with_chosen_deals_is_marked_in_every_view(organiser_client, alice, bob):
    seeded = organiser_client.post(
        "/api/matches/", {"player1": alice.id, "player2": bob.id, "seed": "s1"}, format="json"
    ).json()
    plain = organiser_client.post(
        "/api/matches/", {"player1": alice.id, "player2": bob.id}, format="json"
    ).json()
    assert (seeded["preset_deals"], plain["preset_deals"]) == (True, False)
    detail = organiser_client.get(f"/api/matches/{seeded['id']}/").json()
    assert detail["preset_deals"] is True
    listed = organiser_client.get("/api/matches/").json()["results"]
    assert {m["id"]: m["preset_deals"] for m in listed} == {seeded["id"]: True, plain["id"]: False}


def test_tournament_matches_never_have_chosen_deals(organiser, make_player):
    players = [make_player(f"P{i}") for i in range(6)]
    tournament, _ = tournament_with_a_match(organiser=organiser, players=players, is_public=True)
    match_ids = Pairing.objects.filter(round__tournament=tournament, match__isnull=False)
    match_ids = list(match_ids.values_list("match_id", flat=True))
    assert len(match_ids) == 3
    assert not MatchDealPlan.objects.filter(match_id__in=match_ids).exists()
