"""Issue 35: with the cache's Redis gone (CACHE_URL at a closed port), throttles count in
the process's memory: anonymous reads and sign-ins are answered (never 5xx), the outage is
logged once, and /readyz says the cache is down."""

import logging
import socket

import pytest
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from players.services import player_create


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # closed once the socket is


@pytest.fixture
def redis_gone(settings, monkeypatch):
    settings.CACHES = {
        "default": {
            "BACKEND": "core.cache.FallbackRedisCache",
            "LOCATION": f"redis://127.0.0.1:{closed_port()}/0",
            "OPTIONS": {"retry_seconds": 3600},
        }
    }
    # DRF's throttles read their rates once, when first imported.
    rates = {**SimpleRateThrottle.THROTTLE_RATES, "anon": "5/min"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    return settings


@pytest.mark.django_db
def test_reads_and_sign_ins_answer_and_readyz_says_the_cache_is_down(redis_gone, caplog):
    player_create(name="Ann", username="ann", password="secret-pass-1")
    anonymous = APIClient()
    with caplog.at_level(logging.WARNING, logger="core.cache"):
        statuses = [anonymous.get("/api/tournaments/").status_code for _ in range(7)]
        signed_in = anonymous.post(
            "/api/auth/token/", {"username": "ann", "password": "secret-pass-1"}, format="json"
        )
    # Counted in this process: the anonymous limit (5 a minute) still holds.
    assert statuses == [200] * 5 + [429] * 2
    assert signed_in.status_code == 200, signed_in.content
    assert "token" in signed_in.json()
    outages = [r for r in caplog.records if "unreachable" in r.getMessage()]
    assert len(outages) == 1  # logged once, not once a request

    ready = anonymous.get("/readyz")
    assert ready.status_code == 503
    assert ready.json()["failed"] == ["cache"]
    assert ready.json()["checks"]["cache"].startswith("error: ")


@pytest.mark.django_db
def test_with_redis_away_a_wrong_password_is_still_refused(redis_gone):
    player_create(name="Ann", username="ann", password="secret-pass-1")
    answer = APIClient().post(
        "/api/auth/token/", {"username": "ann", "password": "wrong"}, format="json"
    )
    assert answer.status_code in (400, 401)


def test_redis_coming_back_is_used_again(settings):
    """Away, then back (a Redis that answers at the same address): counted there again."""
    import redis as redis_lib
    from django.core.cache import caches

    url = settings.CACHES["default"].get("LOCATION", "")
    if "redis" not in settings.CACHES["default"]["BACKEND"].lower() or not url:
        pytest.skip("needs the cache on Redis (CACHE_URL)")
    cache = caches["default"]
    cache._outage.down_since = 1.0  # as if an outage had begun
    cache._outage.retry_at = 0.0  # and its retry time had come
    cache.set("hg-test-back", 1)
    assert not cache.down
    assert redis_lib.Redis.from_url(url).exists(cache.make_and_validate_key("hg-test-back"))
