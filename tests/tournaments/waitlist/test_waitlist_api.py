"""The waitlist through the API (issue 40): a status on each registration, the capacity
and the entry rules for organisers, clear 4xx codes that write nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

import eventstore
from players.models import Player
from tournaments import services

pytestmark = pytest.mark.django_db


def _client(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_registrations_show_status_and_waitlist_place(organiser: Any) -> None:
    t = services.tournament_create(name="Capped", format="swiss", rounds=3, created_by=organiser)
    org = _client(organiser)
    assert (
        org.post(f"/api/tournaments/{t.pk}/capacity/", {"capacity": 2}, format="json").json()[
            "capacity"
        ]
        == 2
    )
    users = get_user_model().objects
    players = [
        Player.objects.create(name=f"A{i}", user=users.create_user(username=f"a{i}"))
        for i in range(3)
    ]
    answers = [
        _client(p.user).post(f"/api/tournaments/{t.pk}/registrations/", {}, format="json")
        for p in players
    ]
    assert [a.status_code for a in answers] == [201, 201, 201]
    assert [a.json()["status"] for a in answers] == ["registered", "registered", "waitlisted"]
    assert answers[2].json()["waitlist_place"] == 1
    listed = org.get(f"/api/tournaments/{t.pk}/registrations/").json()["results"]
    assert {r["player"]: r["status"] for r in listed}[players[2].pk] == "waitlisted"

    # The first withdraws: the waiting one is registered (PlayerPromoted).
    gone = _client(players[0].user).post(
        f"/api/tournaments/{t.pk}/registrations/withdraw/", {}, format="json"
    )
    assert gone.status_code == 200
    listed = org.get(f"/api/tournaments/{t.pk}/registrations/").json()["results"]
    assert {r["player"]: r["status"] for r in listed}[players[2].pk] == "registered"

    # Bad input: a clear 400 with a code, nothing written.
    version = len(eventstore.load(stream_id=t.stream_id))
    bad = org.post(f"/api/tournaments/{t.pk}/capacity/", {"capacity": 1}, format="json")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "validation_error"
    assert len(eventstore.load(stream_id=t.stream_id)) == version


def test_entry_rules_and_a_refused_self_registration(organiser: Any) -> None:
    t = services.tournament_create(name="Rules", format="swiss", rounds=3, created_by=organiser)
    org = _client(organiser)
    changed = org.patch(
        f"/api/tournaments/{t.pk}/entry-rules/",
        {"invitation_only": True, "withdraw_until": "2030-01-01T10:00:00+02:00"},
        format="json",
    )
    assert changed.status_code == 200, changed.json()
    got = org.get(f"/api/tournaments/{t.pk}/entry-rules/").json()
    assert got["invitation_only"] is True and got["withdraw_until"].startswith("2030-01-01T08:00")
    user = get_user_model().objects.create_user(username="stranger-b")
    Player.objects.create(name="B", user=user)
    refused = _client(user).post(f"/api/tournaments/{t.pk}/registrations/", {}, format="json")
    assert refused.status_code == 409
    assert refused.json()["error"]["reason"] == "not_eligible"
    assert _client(user).get(f"/api/tournaments/{t.pk}/entry-rules/").status_code == 403
