"""`Idempotency-Key` on POSTs: a retry returns the first response and writes nothing new.
Also the job that forgets old keys."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder
from rest_framework.views import APIView

from core.errors import ApplicationError, ValidationError
from core.models import IdempotencyRecord
from core.transactions import request_transaction

IDEMPOTENCY_KEY_PARAMETER = OpenApiParameter(
    name="Idempotency-Key",
    location=OpenApiParameter.HEADER,
    required=False,
    type=str,
    description="A retried request with the same key returns the first response and writes "
    "nothing new. Reusing a key for a different request answers 422 idempotency_key_reused.",
)


class _Rollback(Exception):
    """Unwinds the idempotency transaction when the handler answered with an error."""

    def __init__(self, response: Response) -> None:
        self.response = response


def _fingerprint(request: Request) -> str:
    data = request.data
    if hasattr(data, "lists"):  # form data: a QueryDict
        data = dict(data.lists())
    canonical = json.dumps(data, sort_keys=True, cls=JSONEncoder)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _replay(record: IdempotencyRecord, fingerprint: str) -> Response:
    if record.fingerprint != fingerprint:
        raise ApplicationError(
            "This Idempotency-Key was used for a different request.",
            code="idempotency_key_reused",
            status=422,
        )
    return Response(record.body, status=record.status_code, headers={"Idempotent-Replayed": "true"})


def idempotent(handler: Callable[..., Response]) -> Callable[..., Response]:
    """Make a POST handler honour the `Idempotency-Key` header.

    The record is inserted first, in the same transaction as the handler's writes: a concurrent
    duplicate blocks on the unique constraint until the first commits, then replays its
    response. Only successful responses are kept; a rejected request wrote nothing, so a retry
    simply runs again.
    """

    @functools.wraps(handler)
    def wrapper(view: APIView, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get("Idempotency-Key", "").strip()
        if not key or not request.user.is_authenticated:
            return handler(view, request, *args, **kwargs)
        if len(key) > 255:
            raise ValidationError("Idempotency-Key must be at most 255 characters.")
        fingerprint = _fingerprint(request)
        lookup = {"user": request.user, "key": key, "method": request.method, "path": request.path}
        existing = IdempotencyRecord.objects.filter(**lookup).first()
        if existing is not None:
            return _replay(existing, fingerprint)
        try:
            with request_transaction():
                record = IdempotencyRecord.objects.create(
                    **lookup, fingerprint=fingerprint, status_code=0
                )
                response = handler(view, request, *args, **kwargs)
                if response.status_code >= 400:
                    raise _Rollback(response)
                record.status_code = response.status_code
                record.body = json.loads(json.dumps(response.data, cls=JSONEncoder))
                record.save(update_fields=["status_code", "body"])
        except _Rollback as rollback:
            return rollback.response
        except IntegrityError:
            existing = IdempotencyRecord.objects.filter(**lookup).first()
            if existing is None:
                raise
            return _replay(existing, fingerprint)
        return response

    return wrapper


def idempotency_records_expire(*, older_than: timedelta | None = None) -> int:
    """Delete the recorded responses of idempotent POSTs older than `older_than` (default:
    the IDEMPOTENCY_KEY_TTL_HOURS setting); returns how many. A retry with such a key after
    that runs as a new request. Deleting twice deletes nothing more: safe to repeat."""
    if older_than is None:
        older_than = timedelta(hours=settings.IDEMPOTENCY_KEY_TTL_HOURS)
    cutoff = timezone.now() - older_than
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=cutoff).delete()
    return deleted
