"""Issue 14 item 10: logins and organiser user ids are shown to who needs them only."""

from __future__ import annotations

import pytest

from tests.helpers import token_client
from tests.reliability.helpers import make_organiser
from tournaments import services

pytestmark = pytest.mark.django_db


def usernames(response) -> dict[int, str | None]:
    return {p["id"]: p["username"] for p in response.json()["results"]}


def test_a_player_sees_no_other_player_s_login(alice, bob, alice_client):
    seen = usernames(alice_client.get("/api/players/"))
    assert seen[alice.id] == alice.user.username
    assert seen[bob.id] is None
    assert alice_client.get(f"/api/players/{bob.id}/").json()["username"] is None
    assert alice_client.get("/api/me/").json()["username"] == alice.user.username


def test_the_login_filter_tells_a_stranger_nothing(alice, bob, alice_client):
    found = alice_client.get("/api/players/", {"username": bob.user.username}).json()
    assert found["results"] == []
    own = alice_client.get("/api/players/", {"username": alice.user.username}).json()
    assert [p["id"] for p in own["results"]] == [alice.id]


def test_organisers_see_logins(alice, bob, organiser_client):
    seen = usernames(organiser_client.get("/api/players/"))
    assert (seen[alice.id], seen[bob.id]) == (alice.user.username, bob.user.username)
    found = organiser_client.get("/api/players/", {"username": bob.user.username}).json()
    assert [p["id"] for p in found["results"]] == [bob.id]


def test_tournament_organiser_ids_are_for_its_organisers(organiser, alice_client):
    tournament = services.tournament_create(
        name="Open", format="swiss", rounds=1, created_by=organiser
    )
    path = f"/api/tournaments/{tournament.pk}/"
    assert alice_client.get(path).json()["organisers"] == []
    assert token_client(make_organiser("other")).get(path).json()["organisers"] == []
    assert token_client(organiser).get(path).json()["organisers"] == [organiser.pk]
    listed = alice_client.get("/api/tournaments/").json()["results"]
    assert all(t["organisers"] == [] for t in listed)
