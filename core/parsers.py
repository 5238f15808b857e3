"""The API's JSON parser. Kept apart from core/api.py: a class named in
DEFAULT_PARSER_CLASSES is imported while rest_framework.views is being imported, so its
module must not import views itself.

DRF's parser takes any JSON: a body nested thousands deep made `json` (and later the
idempotency digest, the renderer) raise RecursionError, a 500; a lone surrogate
(`"\\ud800"`) is valid JSON but no Unicode text, and failed later when written to the
database or rendered; and it read a body of any size. Here each is a 4xx with the API's
error shape before any view sees the data."""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from rest_framework import exceptions, status
from rest_framework.parsers import JSONParser

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
        if limit is not None and stream is not None:
            stream = _Bounded(stream, limit)
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError(_too_deep()) from None
        _check(data)
        return data


def _too_deep() -> str:
    return f"JSON parse error - nested deeper than {MAX_JSON_DEPTH} levels"


def _check(data: Any) -> None:
    """Depth and lone surrogates, walked without recursion."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            if _SURROGATE.search(value):
                raise exceptions.ParseError("JSON parse error - a string holds a lone surrogate")
            continue
        if not isinstance(value, dict | list):
            continue
        if depth > MAX_JSON_DEPTH:
            raise exceptions.ParseError(_too_deep())
        if isinstance(value, dict):
            stack.extend((key, depth) for key in value)
            stack.extend((item, depth + 1) for item in value.values())
        else:
            stack.extend((item, depth + 1) for item in value)


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
