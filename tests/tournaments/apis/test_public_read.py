"""Anyone may read a public tournament through the API, as its pages allow: the tournament,
its entries, rounds, pairings, standings and log, anonymously too. A private tournament is
404 to strangers, signed in or not. Every list is paginated the same way."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.tournaments.helpers import forfeit_round, make_bots, make_tournament

pytestmark = pytest.mark.django_db

LISTS = ["registrations", "rounds", "pairings", "standings", "events"]


@pytest.fixture
def evening(organiser, jobs):
    """A public and a private tournament, each with a round played."""
    from tournaments import services

    made = {}
    for name, public in (("public", True), ("private", False)):
        t = make_tournament(organiser, make_bots(4, prefix=name), rounds=2, is_public=public)
        with jobs():
            services.tournament_round_pair(tournament_id=t.pk, round_number=1, by=organiser)
        with jobs():
            forfeit_round(t, organiser)
        made[name] = t.pk
    return made


@pytest.mark.parametrize("what", ["", *LISTS])
def test_anonymous_reads_a_public_tournament(evening, what):
    url = f"/api/tournaments/{evening['public']}/" + (f"{what}/" if what else "")
    response = APIClient().get(url)
    assert response.status_code == 200, response.content
    if what:
        body = response.json()
        assert {"count", "next", "previous", "results"} <= set(body)  # standings add "tiebreaks"
        assert body["count"] == len(body["results"]) > 0


def test_anonymous_lists_public_tournaments_only(evening):
    body = APIClient().get("/api/tournaments/").json()
    assert [t["id"] for t in body["results"]] == [evening["public"]]


@pytest.mark.parametrize("what", ["", *LISTS])
def test_a_private_tournament_is_404_to_strangers(evening, what):
    url = f"/api/tournaments/{evening['private']}/" + (f"{what}/" if what else "")
    stranger = APIClient()
    stranger.force_authenticate(get_user_model().objects.create_user(username="stranger"))
    for client in (APIClient(), stranger):
        response = client.get(url)
        assert response.status_code == 404, response.content
        assert response.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize(
    "path",
    ["", "registrations/", "registrations/check-in/", "rounds/start/", "rounds/1/repair/"],
)
def test_anonymous_writes_are_refused_with_401_and_write_nothing(evening, path):
    from tournaments.models import Tournament

    tid = evening["public"]
    version = Tournament.objects.get(pk=tid).version
    url = "/api/tournaments/" + (f"{tid}/{path}" if path else "")
    response = APIClient().post(url, {"reason": "x", "name": "x"}, format="json")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"
    assert Tournament.objects.get(pk=tid).version == version


@pytest.mark.parametrize("what", ["registrations", "rounds"])
def test_registrations_and_rounds_page_like_every_list(evening, what, organiser):
    client = APIClient()
    client.force_authenticate(organiser)
    url = f"/api/tournaments/{evening['public']}/{what}/"
    everything = client.get(url).json()
    first = client.get(url, {"limit": 1}).json()
    second = client.get(url, {"limit": 1, "offset": 1}).json()
    assert first["count"] == everything["count"] >= 2
    assert first["results"] == everything["results"][:1]
    assert second["results"] == everything["results"][1:2]
    assert first["next"] and first["previous"] is None
    bad = client.get(url, {"limit": "x"})
    assert bad.status_code in (200, 400)  # DRF ignores a bad limit; never a 500
