"""The API's JSON parser. Kept apart from core/api.py: a class named in
DEFAULT_PARSER_CLASSES is imported while rest_framework.views is being imported, so its
module must not import views itself.

DRF's parser takes any JSON: a body nested thousands deep made `json` (and later the
idempotency digest, the renderer) raise RecursionError, a 500; a lone surrogate
(`"\\ud800"`) is valid JSON but no Unicode text, and failed later when written to the
database or rendered; and it read a body of any size. Here each is a 4xx with the API's
error shape before any view sees the data.

Bodies are JSON only: `JsonBodyOnlyMiddleware` answers any other body under /api/ (a form,
multipart, none named) with 415 `unsupported_media_type` from its headers alone, before
CSRF, django-axes or a parser reads a byte of it."""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext
from rest_framework import exceptions, status
from rest_framework.parsers import JSONParser

from core.text import control_characters_error, has_control_characters

# Deep enough for every body of the API (a knock's melds are 3 deep, a ruleset 2).
MAX_JSON_DEPTH = 32
_SURROGATE = re.compile("[\ud800-\udfff]")


class RequestTooLargeError(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request body is too large."
    default_code = "request_too_large"


class SafeJSONParser(JSONParser):
    """DRF's JSON parser, refusing (400 `parse_error`) JSON nested deeper than
    MAX_JSON_DEPTH or holding a lone surrogate, and (413 `request_too_large`) a body over
    DATA_UPLOAD_MAX_MEMORY_SIZE."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and _content_length(parser_context) > limit:
            raise RequestTooLargeError()  # from the header: nothing read
        if limit is not None and stream is not None:
            stream = _Bounded(stream, limit)
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError(_too_deep()) from None
        _check(data)
        return data


def _too_deep() -> str:
    return gettext("JSON parse error - nested deeper than %(levels)s levels") % {
        "levels": MAX_JSON_DEPTH
    }


def _check(data: Any) -> None:
    """Depth, lone surrogates and control characters (core.text: 400 `validation_error`
    naming the field, e.g. `name` or `players.2.name`), walked without recursion."""
    stack: list[tuple[Any, int, str]] = [(data, 1, "")]
    while stack:
        value, depth, path = stack.pop()
        if isinstance(value, str):
            if _SURROGATE.search(value):
                raise exceptions.ParseError(
                    gettext("JSON parse error - a string holds a lone surrogate")
                )
            if has_control_characters(value):
                raise control_characters_error(path or "body")
            continue
        if not isinstance(value, dict | list):
            continue
        if depth > MAX_JSON_DEPTH:
            raise exceptions.ParseError(_too_deep())
        if isinstance(value, dict):
            stack.extend((key, depth, path) for key in value)
            stack.extend(
                (item, depth + 1, f"{path}.{key}" if path else str(key))
                for key, item in value.items()
            )
        else:
            stack.extend(
                (item, depth + 1, f"{path}.{n}" if path else str(n)) for n, item in enumerate(value)
            )


class _Bounded:
    """A read-only stream that raises RequestTooLargeError past `limit` bytes."""

    def __init__(self, stream: Any, limit: int) -> None:
        self._stream, self._left = stream, limit

    def read(self, size: int = -1) -> bytes:
        wanted = self._left + 1 if size is None or size < 0 else min(size, self._left + 1)
        chunk = self._stream.read(wanted)
        self._left -= len(chunk)
        if self._left < 0:
            raise RequestTooLargeError()
        return chunk


def _content_length(parser_context: Any) -> int:
    request = (parser_context or {}).get("request")
    meta = getattr(request, "META", {})
    try:
        return int(meta.get("CONTENT_LENGTH") or 0)
    except (TypeError, ValueError):
        return 0


JSON_MEDIA_TYPE = "application/json"


def is_json_media_type(content_type: str) -> bool:
    """`application/json`, with or without parameters (`; charset=utf-8`)."""
    return content_type.split(";", 1)[0].strip().lower() == JSON_MEDIA_TYPE


def _has_body(request: HttpRequest) -> bool:
    if request.META.get("HTTP_TRANSFER_ENCODING"):
        return True
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0) > 0
    except (TypeError, ValueError):
        return True  # a length that is no number: refuse it rather than guess


class JsonBodyOnlyMiddleware(MiddlewareMixin):
    """Under /api/, a request with a body that is not `application/json` is answered 415
    `unsupported_media_type` from its headers: an 8 MB multipart upload to the anonymous
    token endpoint costs nothing to refuse. (DRF would refuse it too, JSON being its only
    parser, but CSRF checks and django-axes read form bodies before DRF does.)"""

    def process_request(self, request: HttpRequest) -> HttpResponse | None:
        if not request.path.startswith("/api/") or not _has_body(request):
            return None
        if is_json_media_type(request.META.get("CONTENT_TYPE", "")):
            return None
        body = {
            "error": {
                "code": "unsupported_media_type",
                "message": "Request bodies must be JSON (Content-Type: application/json).",
            }
        }
        response = JsonResponse(body, status=415)
        response["Accept-Post"] = JSON_MEDIA_TYPE
        return response
