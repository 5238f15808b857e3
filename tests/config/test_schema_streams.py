"""The live streams (async Django views, not DRF) are in the OpenAPI schema
(config/openapi.py): an event stream answer, the Last-Event-ID header, the errors."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

STREAMS = ("/api/matches/{match_id}/stream/", "/api/tournaments/{tournament_id}/stream/")


@pytest.mark.parametrize("path", STREAMS)
def test_a_stream_is_documented_as_server_sent_events(alice_client, path):
    schema = alice_client.get("/api/schema/?format=json").json()
    operation = schema["paths"][path]["get"]
    assert "text/event-stream" in operation["responses"]["200"]["content"]
    headers = {p["name"] for p in operation["parameters"] if p["in"] == "header"}
    assert headers == {"Last-Event-ID"}
    assert "after" in {p["name"] for p in operation["parameters"] if p["in"] == "query"}
    error_ref = {"$ref": "#/components/schemas/Error"}
    for code in ("401", "404", "503"):
        body = operation["responses"][code]["content"]["application/json"]["schema"]
        assert body == error_ref, code
    # Next to the /events/ list it follows: the same tag and the same sign-in.
    events = schema["paths"][path.replace("/stream/", "/events/")]["get"]
    assert operation["tags"] == events["tags"]
    assert operation["security"] == events["security"]


def test_a_wsgi_server_answers_a_stream_with_the_documented_503(alice_client):
    response = alice_client.get("/api/tournaments/1/stream/")
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "stream_unavailable"
