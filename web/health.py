"""GET /healthz: the database and broker status, for load balancers and compose checks."""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return "ok"
    except Exception as exc:  # noqa: BLE001 - any failure is reported, not raised
        return f"error: {exc.__class__.__name__}"


def _broker() -> str:
    if not settings.CELERY_BROKER_URL:
        return "eager"
    try:
        import redis

        redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=2).ping()
        return "ok"
    except Exception as exc:  # noqa: BLE001
        return f"error: {exc.__class__.__name__}"


def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": _database(), "broker": _broker()}
    healthy = all(v in ("ok", "eager") for v in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "degraded", **checks}, status=200 if healthy else 503
    )
