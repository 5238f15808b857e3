"""Issue 35: GET /metrics, Prometheus's text format, to the allowed networks or a bearer
token only; requests by view and status, the database's time, and the system's own."""

import pytest
from prometheus_client.parser import text_string_to_metric_families

from core.models import Alert, OutboxMessage
from tests.games.apis.helpers import act, preset_deck

pytestmark = pytest.mark.django_db


def samples(client, **extra) -> dict[tuple[str, tuple], float]:
    response = client.get("/metrics", **extra)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    out = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def value(found, name, **labels) -> float:
    return found.get((name, tuple(sorted(labels.items()))), 0.0)


def test_only_allowed_networks_or_the_token_may_read_them(client, settings):
    settings.METRICS_ALLOWED_NETWORKS = ["10.0.0.0/8"]
    settings.METRICS_TOKEN = "s3cret"
    assert client.get("/metrics").status_code == 404  # 127.0.0.1 is not allowed now
    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3").status_code == 200
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret").status_code == 200
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 404
    settings.METRICS_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    assert client.get("/metrics").status_code == 200  # the default: loopback


def test_a_played_action_moves_the_counters(
    client, organiser_client, alice, bob, bob_client, django_capture_on_commit_callbacks
):
    body = {"player1": alice.id, "player2": bob.id, "first_dealer": alice.id}
    match_id = organiser_client.post(
        "/api/matches/", {**body, "decks": [preset_deck()]}, format="json"
    ).json()["id"]
    before = samples(client)
    with django_capture_on_commit_callbacks(execute=True):  # counted once committed
        assert act(bob_client, match_id, {"type": "pass"}).status_code == 201
    after = samples(client)

    route = "api/matches/<str:match_id>/actions/"
    key = {"view": route, "method": "POST", "status": "201"}
    assert (
        value(after, "hg_http_requests_total", **key)
        == value(before, "hg_http_requests_total", **key) + 1
    )
    assert (
        value(after, "hg_match_actions_total", type="pass")
        == value(before, "hg_match_actions_total", type="pass") + 1
    )
    assert value(after, "hg_events_appended_total", type="UpcardPassed") > value(
        before, "hg_events_appended_total", type="UpcardPassed"
    )
    assert value(after, "hg_db_queries_total", view=route) > value(
        before, "hg_db_queries_total", view=route
    )
    assert value(after, "hg_db_query_seconds_total", view=route) > value(
        before, "hg_db_query_seconds_total", view=route
    )


def test_the_database_states_are_read_when_scraped(client):
    OutboxMessage.objects.create(task="core.outbox_drain", args=[])
    Alert.objects.create(kind=Alert.Kind.JOB_FAILED, key="k1", params={})
    found = samples(client)
    assert value(found, "hg_outbox_depth") == 1
    assert value(found, "hg_outbox_oldest_age_seconds") >= 0
    assert value(found, "hg_alerts_open", kind="job_failed") == 1
    assert value(found, "hg_alerts_open", kind="beat_silent") == 0
    assert value(found, "hg_jobs_failed_for_good") == 1
    assert ("hg_rounds_overdue", ()) in found


def test_a_failed_login_is_counted(client, api_client, make_player):
    make_player("Zed")
    before = value(samples(client), "hg_login_failures_total")
    api_client.post("/api/auth/token/", {"username": "player1", "password": "no"}, format="json")
    assert value(samples(client), "hg_login_failures_total") == before + 1
