"""Issue 32, item 13: every message kind of the live streams is described in the schema
(`x-sse-messages`, each a component), and what the server sends matches its description:
a table's `entry` (null, then an entry) and a tournament's `standings` with the clock."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.hand_entries import HandEntry
from games.services.table_entries import table_entry_submit
from players.services import auth_token_issue
from tests.helpers import openapi_validator
from tests.live.helpers import Follower, asgi_server
from tests.web.desk.helpers import organiser, started_with_logins
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db(transaction=True)

STREAM_MESSAGES = {
    "/api/matches/{match_id}/stream/": {"event", "view", "entry"},
    "/api/tournaments/{tournament_id}/stream/": {"event", "standings"},
    "/api/team-events/{event_id}/stream/": {"event", "standings"},
    "/api/tournaments/{tournament_id}/teams/stream/": {"event", "standings"},
}


def _served_schema() -> dict:
    answer = APIClient().get("/api/schema/?format=json")
    assert answer.status_code == 200
    return answer.json()


def test_every_stream_message_kind_has_a_component():
    schema = _served_schema()
    for path, kinds in STREAM_MESSAGES.items():
        content = schema["paths"][path]["get"]["responses"]["200"]["content"]
        described = content["text/event-stream"]["x-sse-messages"]
        assert set(described) == kinds, path
        for ref in described.values():
            assert ref["$ref"].split("/")[-1] in schema["components"]["schemas"]


def test_what_the_streams_send_matches_the_schema(settings):
    settings.LIVE_KEEPALIVE_SECONDS = 1
    settings.LIVE_POLL_SECONDS = 0.2
    schema = _served_schema()
    entry_schema = openapi_validator(schema, "TableEntryMessage")
    standings_schema = openapi_validator(schema, "StandingsMessage")
    td = organiser()
    tournament = started_with_logins(td, rounds=2)
    match = Pairing.objects.get(round__tournament=tournament, table=1).match
    anna, boris = match.player1, match.player2
    with asgi_server() as base:
        token = auth_token_issue(user=boris.user).key
        phone = Follower(
            f"{base}/api/matches/{match.pk}/stream/?after={match.version}",
            {"Authorization": f"Token {token}"},
        )
        none_yet = phone.take(1, event="entry")[0].data
        entry_schema.validate(none_yet)
        table_entry_submit(
            match_id=match.pk,
            player=anna,
            hand=HandEntry(knocker=anna.pk, knocker_deadwood=4, defender_deadwood=20),
        )
        pending = phone.take(1, event="entry")[0].data
        assert pending is not None
        entry_schema.validate(pending)
        phone.close()

        wall = Follower(f"{base}/api/tournaments/{tournament.pk}/stream/?after=0")
        standings = wall.take(1, event="standings")[0].data
        assert standings["results"] and standings["clock"]["round"] == 1
        standings_schema.validate(standings)
        wall.close()
    # The validators can fail: a message missing a field, or of a wrong type, is refused.
    assert not standings_schema.is_valid({**standings, "clock": None})
    assert not entry_schema.is_valid({**pending, "status": "lost"})
