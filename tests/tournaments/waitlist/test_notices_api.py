"""The caller's notices through the API (issue 40): listed in the caller's language, and the
kinds they get no e-mail of."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from rest_framework.test import APIClient

from players.models import Player
from tests.tournaments.helpers import make_tournament
from tournaments import services

pytestmark = pytest.mark.django_db


def _player(name: str, language: str) -> Player:
    user = get_user_model().objects.create_user(username=name, email=f"{name}@example.org")
    return Player.objects.create(name=name.title(), language=language, user=user)


def test_my_notices_in_my_language_and_my_settings(organiser: Any, jobs: Any) -> None:
    ana, bo = _player("ana", "ro"), _player("bo", "en")
    client = APIClient()
    client.force_authenticate(ana.user)
    settings = client.put("/api/me/notices/settings/", {"opted_out": ["paired"]}, format="json")
    assert settings.status_code == 200 and settings.json()["opted_out"] == ["paired"]
    assert "confirm" in settings.json()["kinds"] and "ruled" in settings.json()["kinds"]

    tournament = make_tournament(organiser, [ana, bo], rounds=1)
    mail.outbox.clear()
    with jobs():
        services.tournament_start(tournament_id=tournament.pk, by=organiser)
    notices = client.get("/api/me/notices/", HTTP_ACCEPT_LANGUAGE="ro").json()
    paired = [n for n in notices if n["kind"] == "paired"]
    assert len(paired) == 1 and paired[0]["tournament"] == tournament.pk
    assert "runda 1" in paired[0]["subject"], paired[0]
    assert paired[0]["emailed"] is False  # opted out: listed, not e-mailed
    assert [m.to for m in mail.outbox if "1" in m.subject] == [["bo@example.org"]]

    bad = client.put("/api/me/notices/settings/", {"opted_out": ["nonsense"]}, format="json")
    assert bad.status_code == 400
    assert client.get("/api/me/notices/settings/").json()["opted_out"] == ["paired"]
    assert APIClient().get("/api/me/notices/").status_code == 401
