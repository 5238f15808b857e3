"""The API's JSON renderer. Kept apart from config/api.py: a class named in
DEFAULT_RENDERER_CLASSES is imported while rest_framework.views is being imported, so its
module must not import views itself."""

from __future__ import annotations

from typing import Any

import orjson
from rest_framework.renderers import JSONRenderer

# Dates and times, dataclasses and anything orjson does not know go to DRF's encoder, so
# they come out exactly as before (a UTC datetime ends in "Z", a Decimal is a number).
_OPTIONS = (
    orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_NON_STR_KEYS
)
_LINE_SEPARATOR, _PARAGRAPH_SEPARATOR = "\u2028".encode(), "\u2029".encode()


class FastJSONRenderer(JSONRenderer):
    """DRF's compact JSON, byte for byte, written by orjson: a match view carries every
    finished hand's record, and DRF's pure-Python encoding of it was a sizeable share of
    an action's time. An indented rendering (`; indent=4`, the browsable API) and
    non-compact settings are left to DRF."""

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: dict[str, Any] | None = None,
    ) -> bytes:
        try:
            return self._render(data, accepted_media_type, renderer_context)
        except UnicodeEncodeError:
            # A lone surrogate (e.g. echoed back by an error message) is no UTF-8: write
            # it, as any non-ASCII character, as a \u escape.
            return _ASCII.render(data, accepted_media_type, renderer_context)

    def _render(
        self,
        data: Any,
        accepted_media_type: str | None,
        renderer_context: dict[str, Any] | None,
    ) -> bytes:
        if data is None:
            return b""
        indent = self.get_indent(accepted_media_type, renderer_context or {})
        if indent is not None or not self.compact or self.ensure_ascii or not self.strict:
            return super().render(data, accepted_media_type, renderer_context)
        encoder = self.encoder_class()
        try:
            out = orjson.dumps(data, default=encoder.default, option=_OPTIONS)
        except orjson.JSONEncodeError:
            # What orjson refuses (an integer beyond 64 bits, ...) DRF's encoder decides.
            return super().render(data, accepted_media_type, renderer_context)
        if _LINE_SEPARATOR in out or _PARAGRAPH_SEPARATOR in out:
            # As DRF: JSON that is also a strict JavaScript subset.
            out = out.replace(_LINE_SEPARATOR, b"\\u2028").replace(_PARAGRAPH_SEPARATOR, b"\\u2029")
        return out


class _ASCIIJSONRenderer(JSONRenderer):
    ensure_ascii = True


_ASCII = _ASCIIJSONRenderer()
