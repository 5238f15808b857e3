"""The webhooks API: organisers and staff only, the secret shown once, clear 4xx codes that
write nothing, the delivery log and the redeliveries."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.helpers import token_client
from tests.tournaments.helpers import make_bots, make_tournament
from tournaments import services
from tournaments.webhooks.models import Delivery, WebhookEndpoint

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(organiser):
    return make_tournament(organiser, make_bots(2), rounds=1, check_in=False)


@pytest.fixture
def org(organiser):
    return token_client(organiser)


def _url(tournament, rest=""):
    return f"/api/tournaments/{tournament.pk}/webhooks/{rest}"


def _create(client, tournament, receiver_url, **body):
    return client.post(_url(tournament), {"url": receiver_url, **body}, format="json")


def test_the_secret_is_shown_once_then_only_its_prefix(org, tournament, fast_webhooks):
    created = _create(org, tournament, "http://127.0.0.1:9/in", event_types=["RoundPaired"])
    assert created.status_code == 201, created.json()
    body = created.json()
    secret = body["secret"]
    assert secret.startswith("whsec_") and body["secret_prefix"] == secret[:10]
    tournament.refresh_from_db()
    assert body["event_types"] == ["RoundPaired"] and body["cursor"] == tournament.version
    listed = org.get(_url(tournament)).json()
    assert listed["count"] == 1 and "secret" not in listed["results"][0]
    detail = org.get(_url(tournament, f"{body['id']}/")).json()
    assert "secret" not in detail and detail["secret_prefix"] == secret[:10]
    assert secret not in str(org.get(_url(tournament, f"{body['id']}/deliveries/")).content)
    # Rotation shows the new one, once.
    rotated = org.patch(_url(tournament, f"{body['id']}/"), {"rotate_secret": True}, format="json")
    assert rotated.status_code == 200
    new = rotated.json()["secret"]
    assert new != secret and WebhookEndpoint.objects.get().secret == new
    paused = org.patch(_url(tournament, f"{body['id']}/"), {"is_active": False}, format="json")
    assert paused.status_code == 200 and "secret" not in paused.json()
    assert paused.json()["is_active"] is False


def test_only_organisers_and_staff_manage_webhooks(
    tournament, make_player, fast_webhooks, organiser
):
    staff = get_user_model().objects.create_user(username="staffer", is_staff=True)
    player = make_player("Pat")
    services.tournament_register(tournament_id=tournament.pk, player=player, by=organiser)
    stranger = make_player("Sam")
    anonymous = token_client(staff)
    anonymous.credentials()  # no token
    cases = {
        "anonymous": (anonymous, 401),
        "player": (token_client(player.user), 403),
        "stranger": (token_client(stranger.user), 403),  # a public tournament: seen, not run
        "staff": (token_client(staff), 201),
        "organiser": (token_client(organiser), 201),
    }
    for who, (client, expected) in cases.items():
        created = _create(client, tournament, "http://127.0.0.1:9/in")
        assert created.status_code == expected, (who, created.json())
        listed = client.get(_url(tournament))
        assert listed.status_code == (200 if expected == 201 else expected), who
        if expected != 201:
            assert created.json()["error"]["code"] in ("not_authenticated", "permission_denied")
    assert WebhookEndpoint.objects.count() == 2
    endpoint = WebhookEndpoint.objects.first()
    player_client = token_client(player.user)
    for method, path in [
        ("get", f"{endpoint.pk}/"),
        ("patch", f"{endpoint.pk}/"),
        ("delete", f"{endpoint.pk}/"),
        ("get", f"{endpoint.pk}/deliveries/"),
        ("post", f"{endpoint.pk}/redeliver/"),
    ]:
        answer = getattr(player_client, method)(_url(tournament, path), {}, format="json")
        assert answer.status_code == 403, (method, path)
    assert WebhookEndpoint.objects.count() == 2


def test_a_private_tournament_is_404_to_strangers(organiser, make_player, fast_webhooks):
    private = make_tournament(organiser, make_bots(2), rounds=1, check_in=False, is_public=False)
    stranger = token_client(make_player("Sam").user)
    answer = _create(stranger, private, "http://127.0.0.1:9/in")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"
    assert not WebhookEndpoint.objects.exists()


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"url": "not a url"}, "validation_error"),
        ({"url": "ftp://127.0.0.1/x"}, "webhook_url_refused"),
        ({"url": "http://[::1]:8000/in"}, "webhook_url_refused"),
        ({"url": "http://10.1.2.3/in"}, "webhook_url_refused"),
        ({"url": "http://169.254.169.254/latest/"}, "webhook_url_refused"),
        ({"url": "http://no-such-host.invalid/in"}, "webhook_url_unresolvable"),
        ({"url": "http://127.0.0.1:9/in", "event_types": ["Nope"]}, "validation_error"),
        ({"url": "http://127.0.0.1:9/in", "event_types": "RoundPaired"}, "validation_error"),
        ({}, "validation_error"),
    ],
)
def test_bad_registrations_are_refused_with_a_code_and_write_nothing(
    org, tournament, settings, body, code
):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    answer = org.post(_url(tournament), body, format="json")
    assert answer.status_code == 400, answer.json()
    error = answer.json()["error"]
    # A refused value is a validation_error; the webhook's own code is its reason.
    assert error.get("reason", error["code"]) == code and error["code"] == "validation_error"
    assert not WebhookEndpoint.objects.exists()


def test_loopback_is_refused_without_the_allow_list(org, tournament, settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = []
    answer = _create(org, tournament, "http://127.0.0.1:9/in")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert (error["code"], error["reason"]) == ("validation_error", "webhook_url_refused")
    assert not WebhookEndpoint.objects.exists()


def test_a_changed_url_is_checked_again(org, tournament, settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    wid = _create(org, tournament, "http://127.0.0.1:9/in").json()["id"]
    answer = org.patch(_url(tournament, f"{wid}/"), {"url": "http://10.0.0.1/"}, format="json")
    assert answer.status_code == 400
    assert answer.json()["error"]["reason"] == "webhook_url_refused"
    assert WebhookEndpoint.objects.get().url == "http://127.0.0.1:9/in"


def test_unknown_ids_are_404_and_a_deleted_endpoint_is_gone(org, tournament, fast_webhooks):
    wid = _create(org, tournament, "http://127.0.0.1:9/in").json()["id"]
    for path in ["999999/", "999999/deliveries/", f"{wid}/deliveries/999999/redeliver/"]:
        method = org.post if path.endswith("redeliver/") else org.get
        answer = method(_url(tournament, path), format="json")
        assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found", path
    assert org.get("/api/tournaments/999999/webhooks/").status_code == 404
    assert org.delete(_url(tournament, f"{wid}/")).status_code == 204
    assert org.get(_url(tournament, f"{wid}/")).status_code == 404


def test_an_endpoint_of_another_tournament_is_404(org, organiser, tournament, fast_webhooks):
    other = make_tournament(organiser, make_bots(2, prefix="Other"), rounds=1, check_in=False)
    wid = _create(org, other, "http://127.0.0.1:9/in").json()["id"]
    assert org.get(_url(tournament, f"{wid}/")).status_code == 404


def test_the_log_lists_deliveries_and_redelivery_queues_them_again(
    org, organiser, tournament, fast_webhooks, receiver, jobs
):
    created = _create(org, tournament, receiver.url).json()
    receiver.secret = created["secret"]
    with jobs():
        for bot in tournament.registrations.all():
            services.tournament_check_in(
                tournament_id=tournament.pk, player=bot.player, by=organiser
            )
    log = org.get(_url(tournament, f"{created['id']}/deliveries/?limit=1"))
    assert log.status_code == 200
    page = log.json()
    assert page["count"] == 2 and len(page["results"]) == 1 and page["next"]
    newest = page["results"][0]
    assert newest["status"] == "delivered" and newest["attempts"] == 1
    assert newest["last_status_code"] == 200 and newest["last_response"] == "ok"
    assert newest["event_type"] == "PlayerCheckedIn" and newest["last_latency_ms"] is not None
    assert org.get(_url(tournament, f"{created['id']}/deliveries/?status=nope")).status_code == 400
    # One again: sent again at once (eager jobs here), with the same event id.
    with jobs():
        again = org.post(
            _url(tournament, f"{created['id']}/deliveries/{newest['id']}/redeliver/"), format="json"
        )
    assert again.status_code == 200 and again.json()["redeliveries"] == 1
    assert len(receiver.by_event()[newest["event_id"]]) == 2
    # From a position: also the events from before the endpoint was registered.
    with jobs():
        queued = org.post(
            _url(tournament, f"{created['id']}/redeliver/"), {"from_position": 1}, format="json"
        )
    tournament.refresh_from_db()
    assert queued.status_code == 200 and queued.json()["queued"] == tournament.version
    positions = {r.position for r in receiver.received}
    assert positions == set(range(1, tournament.version + 1))
    assert all(r.signed for r in receiver.received)
    for bad in ({"from_position": 0}, {}, {"from_position": "x"}):
        answer = org.post(_url(tournament, f"{created['id']}/redeliver/"), bad, format="json")
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "validation_error"
    assert Delivery.objects.filter(status="delivered").count() == tournament.version
