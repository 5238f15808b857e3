"""Issue 35: the request id, taken from X-Request-ID (or made), echoed, kept in the events'
metadata, carried into the jobs the request queues, and on the request's log lines."""

import json
import logging

import pytest

import core.health
import eventstore
from core.logs import JsonFormatter, RequestContextFilter
from core.models import OutboxMessage
from core.outbox import enqueue_in_tx, relay
from core.requestid import CELERY_HEADER, request_id_from, request_id_var
from tests.games.apis.helpers import act, preset_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def match_id(organiser_client, alice, bob) -> str:
    body = {"player1": alice.id, "player2": bob.id, "first_dealer": alice.id}
    response = organiser_client.post(
        "/api/matches/", {**body, "decks": [preset_deck()]}, format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def test_a_clients_id_is_echoed_and_one_is_made_otherwise(client):
    assert client.get("/livez", HTTP_X_REQUEST_ID="abc-123.x:y")["X-Request-ID"] == "abc-123.x:y"
    made = client.get("/livez")["X-Request-ID"]
    assert len(made) == 32 and made != client.get("/livez")["X-Request-ID"]
    # Not plain (a space, a control character, too long): replaced, never logged as given.
    for given in ("a b", "x\x07", "z\n", "y" * 201):
        assert request_id_from(given) != given


def test_the_id_goes_into_the_events_metadata(match_id, bob_client):
    response = act(bob_client, match_id, {"type": "pass"}, HTTP_X_REQUEST_ID="req-42")
    assert response.status_code == 201, response.json()
    assert response["X-Request-ID"] == "req-42"
    events = eventstore.load(stream_id=f"match-{match_id}")
    assert events[-1].metadata["request_id"] == "req-42"


def test_a_made_id_goes_into_the_events_metadata_too(match_id, bob_client):
    response = act(bob_client, match_id, {"type": "pass"})
    made = response["X-Request-ID"]
    assert eventstore.load(stream_id=f"match-{match_id}")[-1].metadata["request_id"] == made


def test_a_job_queued_in_a_request_keeps_its_id_and_its_message_carries_it(monkeypatch):
    from celery import current_app
    from celery.signals import before_task_publish

    published = []

    def publish(message):  # instead of the broker: the headers Celery's send would add
        headers: dict = {}
        before_task_publish.send(sender=message.task, headers=headers, body=None)
        published.append(headers)

    current_app.conf.task_always_eager = False  # tests/conftest.py puts it back
    monkeypatch.setattr("core.outbox._publish_now", publish)
    token = request_id_var.set("req-7")
    try:
        enqueue_in_tx(task="core.outbox_drain", args=())  # relayed after commit: not here
    finally:
        request_id_var.reset(token)
    message = OutboxMessage.objects.get()
    assert message.request_id == "req-7"
    # Relayed later (the drain, another process): the message still carries the request's id.
    assert relay(message_id=message.pk)
    assert published == [{CELERY_HEADER: "req-7"}]


def test_each_request_writes_one_json_line_with_its_id_user_route_and_duration(
    match_id, bob_client, bob, caplog
):
    with caplog.at_level(logging.INFO, logger="hg.request"):
        act(bob_client, match_id, {"type": "pass"}, HTTP_X_REQUEST_ID="req-99")
    (record,) = [r for r in caplog.records if r.name == "hg.request"]
    RequestContextFilter().filter(record)
    line = json.loads(JsonFormatter().format(record))
    assert line["request_id"] == "req-99"
    assert line["user_id"] == str(bob.user.pk)
    assert line["route"] == "api/matches/<str:match_id>/actions/"
    assert line["status"] == 201 and line["level"] == "INFO" and line["logger"] == "hg.request"
    assert line["duration_ms"] > 0 and line["time"].endswith("Z")


def test_a_line_logged_inside_a_request_carries_its_id(client, caplog, monkeypatch):
    def check() -> str:
        logging.getLogger("somewhere.inside").warning("checked")
        return "ok"

    monkeypatch.setitem(core.health.CHECKS, "logs", check)
    caplog.handler.addFilter(RequestContextFilter())
    with caplog.at_level(logging.INFO):
        client.get("/readyz", HTTP_X_REQUEST_ID="inner-1")
    (inside,) = [r for r in caplog.records if r.name == "somewhere.inside"]
    assert inside.request_id == "inner-1"
    assert json.loads(JsonFormatter().format(inside))["request_id"] == "inner-1"
