"""Issue 34, "must hold afterwards": after erasing a player who registered herself, played
at a table and online, disputed in her own words and was named in an organiser's ruling,
a plain-text dump of the whole database holds none of her name, username or e-mail; the
standings are identical; her match's audit bundle and a new export hold none of them;
`verify_events` and `verify_projections` pass; her token is refused."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.db import connection

from tests.helpers import token_client
from tests.privacy.helpers import (
    EMAIL,
    NAME,
    USERNAME,
    ana_story,
    pg_dump_data,
    standings_of,
    traces,
)
from tournaments.selectors.exports import tournament_export

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="pg_dump: PostgreSQL only"),
]


def test_an_erased_player_leaves_no_trace_and_every_result(client):
    story = ana_story()
    ana = story.ana
    ana_api = token_client(ana.user)
    assert ana_api.get("/api/me/").status_code == 200
    before = standings_of(story.tournament)
    assert traces(pg_dump_data()) == [NAME, USERNAME, EMAIL]  # the test can fail

    answer = token_client(story.organiser).post(
        f"/api/players/{ana.pk}/erase/", {"confirm": True, "reason": "her request"}, format="json"
    )

    assert answer.status_code == 200, answer.content
    assert answer.json()["player"] == ana.pk
    dump = pg_dump_data()
    assert traces(dump) == []
    assert "ana-req-1" not in dump  # her client's request id, kept in her move's metadata
    assert standings_of(story.tournament) == before
    bundle = token_client(story.organiser).get(f"/api/matches/{story.table_match}/audit/")
    assert bundle.status_code == 200
    assert traces(bundle.content.decode("utf-8")) == []
    assert f"#{ana.pk}" in json.dumps(bundle.json()["match"]["players"])
    export = io.StringIO()
    tournament_export(tournament_id=story.tournament.pk, out=export)
    assert traces(export.getvalue()) == []
    call_command("verify_events", verbosity=0, stdout=io.StringIO(), stderr=io.StringIO())
    call_command("verify_projections", stdout=io.StringIO(), stderr=io.StringIO())
    refused = ana_api.get("/api/me/")
    assert refused.status_code == 401
    login = client.post(
        "/api/auth/token/", {"username": USERNAME, "password": "secret-pass-1"}, "application/json"
    )
    assert login.status_code == 400
