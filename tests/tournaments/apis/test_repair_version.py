"""A re-pairing through the API can carry the tournament's version: a stale one (a second
click, another organiser) is 409 version_conflict and changes nothing."""

from __future__ import annotations

import pytest

from tests.tournaments.helpers import make_bots, make_tournament
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_a_stale_expected_version_is_refused(api_client, organiser):
    tournament = make_tournament(organiser, make_bots(4), rounds=2)
    services.tournament_start(tournament_id=tournament.pk, by=organiser)
    version = Tournament.objects.get(pk=tournament.pk).version
    api_client.force_authenticate(organiser)
    url = f"/api/tournaments/{tournament.pk}/rounds/1/repair/"
    first = api_client.post(url, {"reason": "table", "expected_version": version}, format="json")
    assert first.status_code == 200, first.json()
    again = api_client.post(url, {"reason": "table", "expected_version": version}, format="json")
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "version_conflict"
    assert again.json()["error"]["current_version"] > version
    assert again.json()["error"]["stream_id"] == f"tournament-{tournament.pk}"
    assert again.json()["error"]["expected_version"] == version
    # The next round cannot start while round 1 is in play: 409 with the service's code.
    started = api_client.post(
        f"/api/tournaments/{tournament.pk}/rounds/start/", {"reason": "early"}, format="json"
    )
    assert started.status_code == 409
    error = started.json()["error"]
    assert (error["code"], error["reason"]) == ("conflict", "round_in_play")
