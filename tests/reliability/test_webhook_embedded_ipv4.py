"""Issue 26 (7): the webhook guard refuses every IPv6 address that embeds a refused IPv4
address (6to4, NAT64, IPv4-mapped and -compatible, Teredo), so `http://[2002:7f00:1::]/`
(6to4 for 127.0.0.1) cannot reach our own network; an allow-list entry for 127.0.0.1 opens
127.0.0.1, not every address that carries it."""

from __future__ import annotations

import pytest

from tests.helpers import token_client
from tests.tournaments.helpers import make_bots, make_tournament
from tournaments.webhooks.guard import WebhookUrlError, address_allowed, url_check
from tournaments.webhooks.models import WebhookEndpoint

EMBEDDING_REFUSED = [
    "2002:7f00:1::",  # 6to4 of 127.0.0.1
    "2002:a00:1::1",  # 6to4 of 10.0.0.1
    "2002:a9fe:a9fe::",  # 6to4 of 169.254.169.254
    "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
    "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254
    "64:ff9b:1::7f00:1",  # local-use NAT64
    "64:ff9b:1:7f00:1::",
    "::ffff:127.0.0.1",  # IPv4-mapped
    "::ffff:192.168.0.1",
    "::127.0.0.1",  # IPv4-compatible
    "::10.0.0.1",
    "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo, client 127.0.0.1
    "2001:0:7f00:1:0:0:f7ff:fffe",  # Teredo, server 127.0.0.1
]


@pytest.mark.parametrize("address", EMBEDDING_REFUSED)
def test_an_ipv6_address_embedding_a_refused_ipv4_one_is_refused(settings, address):
    settings.WEBHOOK_ALLOWED_NETWORKS = []
    assert not address_allowed(address)
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32", "10.0.0.0/8", "169.254.0.0/16"]
    if not address.startswith("::ffff:"):  # mapped is the same address, the others are not
        assert not address_allowed(address)


def test_6to4_of_a_public_address_and_plain_public_ipv6_stay_allowed(settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = []
    assert address_allowed("2002:808:808::1")  # 6to4 of 8.8.8.8
    assert address_allowed("2606:4700:4700::1111")


def test_the_url_of_the_issue_is_refused(settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    with pytest.raises(WebhookUrlError):
        url_check("http://[2002:7f00:1::]/")


@pytest.mark.django_db
def test_registering_it_is_a_400_that_writes_nothing(organiser, settings, fresh_throttles):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    tournament = make_tournament(organiser, make_bots(2), rounds=1, check_in=False)
    answer = token_client(organiser).post(
        f"/api/tournaments/{tournament.pk}/webhooks/",
        {"url": "http://[2002:7f00:1::]:8000/in"},
        format="json",
    )
    assert answer.status_code == 400, answer.content
    error = answer.json()["error"]
    assert (error["code"], error["reason"]) == ("validation_error", "webhook_url_refused")
    assert not WebhookEndpoint.objects.exists()
