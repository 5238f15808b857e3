"""Webhooks in the admin: registered through the service (the secret shown once, in a
message; the guard refusing inner addresses on the form), the delivery log read-only, and
the redelivery actions."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages

from tests.factories import UserFactory
from tests.tournaments.helpers import make_bots, make_tournament
from tournaments import services
from tournaments.webhooks import services as webhooks
from tournaments.webhooks.models import Delivery, WebhookEndpoint

pytestmark = pytest.mark.django_db

ADD = "/admin/tournaments/webhookendpoint/add/"
ENDPOINTS = "/admin/tournaments/webhookendpoint/"
DELIVERIES = "/admin/tournaments/delivery/"


@pytest.fixture
def admin_client(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def tournament(organiser):
    return make_tournament(organiser, make_bots(2), rounds=1, check_in=False)


def _messages(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_an_endpoint_added_in_the_admin_shows_its_secret_once(
    admin_client, tournament, fast_webhooks
):
    form = {"tournament": tournament.pk, "url": "http://127.0.0.1:9/in", "is_active": "on"}
    response = admin_client.post(ADD, {**form, "event_types": ["RoundPaired"]}, follow=True)
    assert response.status_code == 200
    endpoint = WebhookEndpoint.objects.get()
    assert endpoint.event_types == ["RoundPaired"] and endpoint.created_by is not None
    assert any(endpoint.secret in m for m in _messages(response))
    page = admin_client.get(f"{ENDPOINTS}{endpoint.pk}/change/").content.decode()
    assert endpoint.secret not in page and endpoint.secret_prefix in page
    assert f"?endpoint__id__exact={endpoint.pk}" in page  # the delivery log


def test_the_admin_form_refuses_an_inner_address(admin_client, tournament, settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = []
    form = {"tournament": tournament.pk, "url": "http://127.0.0.1:9/in", "is_active": "on"}
    response = admin_client.post(ADD, form)
    assert response.status_code == 200  # the form again, with the error
    assert "may not reach" in response.content.decode()
    assert not WebhookEndpoint.objects.exists()


def test_the_log_is_read_only_and_the_actions_redeliver(
    admin_client, organiser, tournament, fast_webhooks, receiver, jobs
):
    written = webhooks.webhook_create(tournament_id=tournament.pk, by=organiser, url=receiver.url)
    receiver.secret = written.secret
    with jobs():
        for reg in tournament.registrations.select_related("player"):
            services.tournament_check_in(
                tournament_id=tournament.pk, player=reg.player, by=organiser
            )
    assert set(Delivery.objects.values_list("status", flat=True)) == {"delivered"}
    log = admin_client.get(f"{DELIVERIES}?endpoint__id__exact={written.endpoint.pk}")
    assert log.status_code == 200 and "PlayerCheckedIn" in log.content.decode()
    delivery = Delivery.objects.first()
    assert admin_client.get(f"{DELIVERIES}{delivery.pk}/change/").status_code == 200
    assert admin_client.get(f"{DELIVERIES}add/").status_code == 403
    with jobs():
        admin_client.post(
            DELIVERIES, {"action": "redeliver", "_selected_action": [delivery.pk]}, follow=True
        )
    delivery.refresh_from_db()
    assert delivery.redeliveries == 1 and delivery.status == "delivered"
    # From a position: a form first, then the deliveries.
    action = {"action": "redeliver_from_position", "_selected_action": [written.endpoint.pk]}
    assert "from_position" in admin_client.post(ENDPOINTS, action).content.decode()
    before = len(receiver.received)
    with jobs():
        done = admin_client.post(
            ENDPOINTS, {**action, "apply": "1", "from_position": "1"}, follow=True
        )
    tournament.refresh_from_db()
    assert any("deliveries queued" in m for m in _messages(done))
    assert len(receiver.received) - before == tournament.version  # every event from 1
    # Deleted through the service, with its log.
    delete = {"action": "delete_selected", "_selected_action": [written.endpoint.pk], "post": "yes"}
    admin_client.post(ENDPOINTS, delete, follow=True)
    assert not WebhookEndpoint.objects.exists() and not Delivery.objects.exists()
