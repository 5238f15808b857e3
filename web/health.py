"""The probes: GET /livez (the process answers: nothing external is asked, so a Redis or
database blip never gets a healthy process restarted) and GET /readyz (may it take
traffic, and is everything behind it alive: core.health's checks; 503 naming what failed).
/healthz, the older name, answers as /readyz. And GET /metrics, for Prometheus."""

from __future__ import annotations

import hmac
import ipaddress

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache

from core.health import readiness
from core.login_throttle import client_ip
from core.metrics import exposition


@never_cache
def livez(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


@never_cache
def readyz(request: HttpRequest) -> JsonResponse:
    ready, checks = readiness()
    failed = sorted(name for name, result in checks.items() if result.startswith("error"))
    body = {"status": "ok" if ready else "failing", "failed": failed, "checks": checks}
    return JsonResponse(body, status=200 if ready else 503)


# --- GET /metrics ---------------------------------------------------------------------------


def _metrics_allowed(request: HttpRequest) -> bool:
    """A bearer token equal to METRICS_TOKEN, or a client address (as the throttles see it,
    behind NUM_PROXIES proxies) in METRICS_ALLOWED_NETWORKS."""
    token = settings.METRICS_TOKEN
    given = request.headers.get("Authorization", "")
    if token and given.startswith("Bearer "):
        return hmac.compare_digest(given[len("Bearer ") :].encode(), token.encode())
    try:
        address = ipaddress.ip_address(client_ip(request))
    except ValueError:
        return False
    return any(address in network for network in _networks())


def _networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(n, strict=False) for n in settings.METRICS_ALLOWED_NETWORKS]


@never_cache
def metrics_view(request: HttpRequest) -> HttpResponse:
    """Prometheus's text format: this service's processes' counters and the database's
    states (core.metrics). 404 to anyone not allowed: nothing says it is here."""
    if not _metrics_allowed(request):
        raise Http404
    body, content_type = exposition()
    return HttpResponse(body, content_type=content_type)
