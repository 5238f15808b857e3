"""`Idempotency-Key` on POSTs: a retry returns the first response and writes nothing new.
Also the job that forgets old keys.

What a record keeps is what a replay needs and no more (README "Idempotency-Key"):

- `fingerprint`: a digest of the request body (the first 128 bits of its SHA-256, hex), so
  the same key sent with a different body is refused (422 idempotency_key_reused);
- `status_code`;
- the answer, in one of two forms:
  * `reference`: a few values from which the endpoint re-renders its first answer. An
    endpoint opts in with `@idempotent(replay=...)`, giving a `Replay`: `reference(data)`
    picks them from the answer, `render(request, kwargs, reference)` rebuilds it. The match
    commands keep the version their change produced (and what the state at that version does
    not hold), and a replay renders the caller's view of the match at that version
    (games.apis.common.MATCH_VIEW_REPLAY): a few dozen bytes instead of the view's 2-3 KB;
  * `body_z`: every other endpoint's answer, its JSON compressed with zlib. Those answers
    are small and their requests rare (registrations, rounds, webhooks...).
- `body`: the plain JSON copy that records made before 3.0.0 hold; they still replay until
  they expire.
"""

from __future__ import annotations

import functools
import hashlib
import json
import zlib
from collections.abc import Callable
from dataclasses import dataclass
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
from core.retention import delete_in_batches
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


@dataclass(frozen=True)
class Replay:
    """How an endpoint keeps a reference to its answer instead of the answer itself.
    `reference(data)`: the few JSON values to keep from the answer's data (None: keep the
    compressed body instead); `render(request, kwargs, reference)`: the same answer again,
    from them (kwargs: the URL's)."""

    reference: Callable[[Any], dict | None]
    render: Callable[[Request, dict[str, Any], dict], Any]


def _fingerprint(request: Request) -> str:
    data = request.data
    if hasattr(data, "lists"):  # form data: a QueryDict
        data = dict(data.lists())
    canonical = json.dumps(data, sort_keys=True, cls=JSONEncoder)
    # 128 bits tell two requests under one key apart; a record made before 3.0.0 holds 256.
    return hashlib.sha256(canonical.encode()).hexdigest()[:32]


def _compress(data: Any) -> bytes:
    return zlib.compress(json.dumps(data, cls=JSONEncoder, separators=(",", ":")).encode(), 9)


def _replay(
    record: IdempotencyRecord,
    fingerprint: str,
    request: Request,
    kwargs: dict[str, Any],
    replay: Replay | None,
) -> Response:
    if record.fingerprint[: len(fingerprint)] != fingerprint:
        raise ApplicationError(
            "This Idempotency-Key was used for a different request.",
            code="idempotency_key_reused",
            status=422,
        )
    if record.reference is not None and replay is not None:
        data = replay.render(request, kwargs, record.reference)
    elif record.body_z is not None:
        data = json.loads(zlib.decompress(bytes(record.body_z)))
    else:  # a record made before 3.0.0: the body itself
        data = record.body
    return Response(data, status=record.status_code, headers={"Idempotent-Replayed": "true"})


def _keep(record: IdempotencyRecord, response: Response, replay: Replay | None) -> None:
    record.status_code = response.status_code
    reference = replay.reference(response.data) if replay is not None else None
    if reference is not None:
        record.reference = reference
    else:
        record.body_z = _compress(response.data)
    record.save(update_fields=["status_code", "reference", "body_z"])


def idempotent(
    handler: Callable[..., Response] | None = None, *, replay: Replay | None = None
) -> Any:
    """Make a POST handler honour the `Idempotency-Key` header: `@idempotent`, or
    `@idempotent(replay=...)` for an endpoint that keeps a reference to its answer.

    The record is inserted first, in the same transaction as the handler's writes: a concurrent
    duplicate blocks on the unique constraint until the first commits, then replays its
    response. Only successful responses are kept; a rejected request wrote nothing, so a retry
    simply runs again.
    """
    if handler is None:
        return functools.partial(idempotent, replay=replay)

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
            return _replay(existing, fingerprint, request, kwargs, replay)
        try:
            with request_transaction():
                record = IdempotencyRecord.objects.create(
                    **lookup, fingerprint=fingerprint, status_code=0
                )
                response = handler(view, request, *args, **kwargs)
                if response.status_code >= 400:
                    raise _Rollback(response)
                _keep(record, response, replay)
        except _Rollback as rollback:
            return rollback.response
        except IntegrityError:
            existing = IdempotencyRecord.objects.filter(**lookup).first()
            if existing is None:
                raise
            return _replay(existing, fingerprint, request, kwargs, replay)
        return response

    return wrapper


def idempotency_records_expire(*, older_than: timedelta | None = None) -> int:
    """Delete the recorded responses of idempotent POSTs older than `older_than` (default:
    the IDEMPOTENCY_KEY_TTL_HOURS setting), in batches; returns how many. A retry with such
    a key after that runs as a new request. Deleting twice deletes nothing more: safe to
    repeat. Run by the retention job (core.retention)."""
    if older_than is None:
        older_than = timedelta(hours=settings.IDEMPOTENCY_KEY_TTL_HOURS)
    cutoff = timezone.now() - older_than
    return delete_in_batches(IdempotencyRecord.objects.filter(created_at__lt=cutoff))
