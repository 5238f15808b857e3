"""Stream tickets: a browser's EventSource cannot send an Authorization header, so a signed
ticket for one stream (`?ticket=`) stands for it (`core.live.authenticate` reads it)."""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.http import HttpRequest
from rest_framework.exceptions import AuthenticationFailed

_TICKET_SALT = "core.live.stream_ticket"
STREAM_PATH = re.compile(r"^/api/(matches/[0-9a-fA-F-]{1,64}|tournaments/\d{1,19})/stream/$")


def ticket_lifetime() -> int:
    return int(getattr(settings, "STREAM_TICKET_SECONDS", 300))


def stream_ticket_issue(*, user: Any, path: str) -> str:
    """A signed ticket for `user` to follow the stream at `path` (one stream), for
    STREAM_TICKET_SECONDS: passed as `?ticket=` where no header can be sent. Nothing is
    stored; the stream checks what it may show the user as for any request."""
    return signing.dumps({"u": user.pk, "s": path}, salt=_TICKET_SALT, compress=True)


def ticket_user(request: HttpRequest, ticket: str) -> Any:
    """The active user a ticket for this request's stream names; AuthenticationFailed
    for an expired, forged or other stream's ticket."""
    try:
        data = signing.loads(ticket, salt=_TICKET_SALT, max_age=ticket_lifetime())
    except signing.SignatureExpired:
        raise AuthenticationFailed("The stream ticket has expired.") from None
    except signing.BadSignature:
        raise AuthenticationFailed("Invalid stream ticket.") from None
    if not isinstance(data, dict) or data.get("s") != request.path:
        raise AuthenticationFailed("The stream ticket is for another stream.")
    user = get_user_model().objects.filter(pk=data.get("u"), is_active=True).first()
    if user is None:
        raise AuthenticationFailed("User inactive or deleted.")
    return user
