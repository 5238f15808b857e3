"""Issue 21: an API version policy. `info.version` is CHANGELOG.md's latest entry; the
schema names a server; deprecated endpoints are marked and say so in their answers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db

CHANGELOG = Path(__file__).resolve().parents[2] / "CHANGELOG.md"


def test_the_schema_version_is_the_changelog_s_latest(alice_client):
    schema = alice_client.get("/api/schema/?format=json").json()
    latest = re.search(r"^## (\d+\.\d+\.\d+)$", CHANGELOG.read_text(), re.M).group(1)
    assert schema["info"]["version"] == latest != "1.0.0"
    assert schema["servers"] and schema["servers"][0]["url"]


def test_the_bundle_s_old_name_is_deprecated(alice_client, organiser_client, alice, bob):
    schema = alice_client.get("/api/schema/?format=json").json()
    assert schema["paths"]["/api/matches/{match_id}/bundle/"]["get"]["deprecated"] is True
    assert not schema["paths"]["/api/matches/{match_id}/audit/"]["get"].get("deprecated")
    match = organiser_client.post("/api/matches/", {"player1": alice.id, "player2": bob.id})
    response = alice_client.get(f"/api/matches/{match.json()['id']}/bundle/")
    assert response.status_code == 200
    assert response["Deprecation"] == "true" and "/audit/" in response["Link"]
