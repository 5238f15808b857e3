"""Every list answers the same envelope (ApiPagination: `count`, `next`, `previous`,
`results`, `limit`/`offset`); a public tournament, its registrations, rounds, pairings,
standings and events are read without signing in; a private one is 404 to anyone else."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.helpers import token_client

ENVELOPE = {"count", "next", "previous", "results"}
LISTS = ("registrations/", "rounds/", "pairings/?round=1", "standings/", "events/")


@pytest.fixture
def tournament(transactional_db):
    from demo.simulation import tournament_simulate

    return tournament_simulate(
        players=3, format="round_robin", rounds=None,
        ruleset={"game_target": 10, "games": 1}, progress=False,
    )  # fmt: skip


def test_anyone_reads_a_public_tournament_and_its_lists_in_one_envelope(tournament):
    anonymous = APIClient()
    listed = anonymous.get("/api/tournaments/")
    assert listed.status_code == 200 and set(listed.json()) == ENVELOPE
    assert tournament.pk in [t["id"] for t in listed.json()["results"]]
    base = f"/api/tournaments/{tournament.pk}/"
    assert anonymous.get(base).status_code == 200
    for path in LISTS:
        response = anonymous.get(base + path)
        assert response.status_code == 200, (path, response.json())
        body = response.json()
        assert set(body) >= ENVELOPE, path  # standings add their `tiebreaks` order
        assert body["count"] >= 1, path
        first = anonymous.get(base + path + ("&" if "?" in path else "?") + "limit=1").json()
        assert len(first["results"]) == 1, path
        assert (first["next"] is not None) == (body["count"] > 1), path


def test_a_private_tournament_is_404_to_anyone_who_may_not_see_it(tournament, make_player):
    from tournaments.services import tournament_settings_change

    tournament_settings_change(
        tournament_id=tournament.pk, by=tournament.created_by, changes={"is_public": False}
    )
    base = f"/api/tournaments/{tournament.pk}/"
    for client in (APIClient(), token_client(make_player().user)):
        assert client.get(base).status_code == 404
        for path in LISTS:
            response = client.get(base + path)
            assert response.status_code == 404, path
            assert response.json()["error"]["code"] == "not_found"
        listed = client.get("/api/tournaments/").json()["results"]
        assert tournament.pk not in [t["id"] for t in listed]


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/matches/", "/api/players/", "/api/disputes/"])
def test_the_other_lists_answer_the_same_envelope(organiser_client, path):
    response = organiser_client.get(path + "?limit=1")
    assert response.status_code == 200, response.json()
    assert set(response.json()) == ENVELOPE
