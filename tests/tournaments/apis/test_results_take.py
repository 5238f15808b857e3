"""POST /api/tournaments/{id}/results/take/ and the admin action: an organiser's way out of
a round stuck because a `match_finished` job was lost (the match is over, its pairing still
waits)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from players.models import Player
from players.services import player_login_code_issue, player_login_code_use
from tests.tournaments.helpers import record_gins, table_tournament
from tournaments import jobs
from tournaments.models import Pairing, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def stuck(organiser, monkeypatch):
    """A table tournament whose round-1 match finished while every job was lost."""
    players = [Player.objects.create(name=n) for n in ("Ann", "Ben")]
    tournament = table_tournament(organiser, players)
    pairing = Pairing.objects.get(round__tournament=tournament, round__number=1)
    monkeypatch.setattr(jobs, "enqueue_in_tx", lambda **kwargs: None)
    record_gins(pairing.match_id, organiser, pairing.player1)
    monkeypatch.undo()
    assert Pairing.objects.get(pk=pairing.pk).status == "pending"
    return tournament, pairing


def _client(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _url(tournament: Tournament) -> str:
    return f"/api/tournaments/{tournament.pk}/results/take/"


def test_an_organiser_takes_the_result_of_a_stuck_pairing(stuck, organiser):
    tournament, pairing = stuck
    version = Tournament.objects.get(pk=tournament.pk).version
    response = _client(organiser).post(_url(tournament), format="json")
    assert response.status_code == 200, response.content
    taken = response.json()["taken"]
    assert [(t["round"], t["table"], t["status"]) for t in taken] == [(1, 1, "finished")]
    assert taken[0]["winner"] == pairing.player1_id
    assert taken[0]["match"] == str(pairing.match_id)
    pairing.refresh_from_db()
    assert pairing.status == "finished" and pairing.winner_id == pairing.player1_id
    assert Tournament.objects.get(pk=tournament.pk).version > version
    # Again: nothing is waiting any more, 200 with an empty list, nothing written.
    version = Tournament.objects.get(pk=tournament.pk).version
    again = _client(organiser).post(_url(tournament), format="json")
    assert again.status_code == 200 and again.json() == {"taken": []}
    assert Tournament.objects.get(pk=tournament.pk).version == version


def test_staff_may_take_the_results(stuck):
    tournament, pairing = stuck
    staff = get_user_model().objects.create_user(
        username="staff", password="pw-staff-123", is_staff=True
    )
    response = _client(staff).post(_url(tournament), format="json")
    assert response.status_code == 200
    assert [t["table"] for t in response.json()["taken"]] == [pairing.table]


def test_nothing_to_take_is_200_with_an_empty_list(organiser):
    players = [Player.objects.create(name=n) for n in ("Ann", "Ben")]
    tournament = table_tournament(organiser, players)  # in play, nothing finished
    response = _client(organiser).post(_url(tournament), format="json")
    assert response.status_code == 200 and response.json() == {"taken": []}


@pytest.mark.parametrize("who", ["anonymous", "player", "stranger"])
def test_only_organisers_may_and_a_refusal_writes_nothing(stuck, organiser, who):
    tournament, pairing = stuck
    user = None
    if who == "player":  # the player's own login, opened with a code from the desk
        issued = player_login_code_issue(player_id=pairing.player1_id, by=organiser)
        user = player_login_code_use(code=issued.code)
    elif who == "stranger":
        user = get_user_model().objects.create_user(username="x", password="pw-x-123456")
    version = Tournament.objects.get(pk=tournament.pk).version
    response = _client(user).post(_url(tournament), format="json")
    assert response.status_code in (401, 403), response.content
    assert response.json()["error"]["code"] in ("not_authenticated", "permission_denied")
    assert Pairing.objects.get(pk=pairing.pk).status == "pending"
    assert Tournament.objects.get(pk=tournament.pk).version == version


def test_an_unknown_tournament_is_404(organiser):
    response = _client(organiser).post("/api/tournaments/999999/results/take/", format="json")
    assert response.status_code == 404


def test_the_endpoint_is_in_the_schema(organiser):
    schema = _client().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/tournaments/{tournament_id}/results/take/"]["post"]
    assert "200" in operation["responses"] and "403" in operation["responses"]


def test_the_admin_action_takes_the_results(stuck, client):
    tournament, pairing = stuck
    admin = get_user_model().objects.create_superuser(username="root", password="pw-root-123")
    client.force_login(admin)
    response = client.post(
        "/admin/tournaments/tournament/",
        {"action": "take_results", "_selected_action": [tournament.pk]},
        follow=True,
    )
    assert response.status_code == 200
    pairing.refresh_from_db()
    assert pairing.status == "finished" and pairing.winner_id == pairing.player1_id
    # Nothing more to take: said so, nothing written.
    version = Tournament.objects.get(pk=tournament.pk).version
    again = client.post(
        "/admin/tournaments/tournament/",
        {"action": "take_results", "_selected_action": [tournament.pk]},
        follow=True,
    )
    assert "no finished match was waiting" in again.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).version == version
