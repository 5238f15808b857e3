"""The rules every text of a request keeps, wherever it comes in (issue 32):

- no control characters (C0, DEL, C1; a tab and line breaks apart): a bell or an escape
  in a name broke the `.xlsx` exports and means nothing to a reader. The API's JSON parser
  (core.parsers) refuses them in any string, the pages' forms in any field
  (`FormTextMiddleware`), before any view sees the data;
- one length for the free text of a command (a reason, a statement, a comment, a note):
  FREE_TEXT_MAX, in the API's input serializers (`free_text`) and the desk's forms
  (`FreeTextField`) alike, so a reason cannot fill the public log.

Exports meet old rows written before these rules: `printable` takes the characters out."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.html import escape
from django.utils.translation import gettext, gettext_noop
from rest_framework import serializers

from core.errors import ValidationError

FREE_TEXT_MAX = 2000
# C0 but tab, line feed and carriage return; DEL; C1.
CONTROL_CHARACTERS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
CONTROL_MESSAGE = gettext_noop("A text may not hold control characters.")
TOO_LONG_MESSAGE = gettext_noop("A text of at most %(limit)s characters, please.")


def ascii_digits(text: str) -> str:
    """`text` with every script's decimal digits (Persian ۰-۹, Arabic-Indic ٠-٩, ...) as
    0-9: a code printed on a Persian page is typed as it is shown (issue 37)."""
    if text.isascii():
        return text
    return "".join(
        str(unicodedata.decimal(c)) if not c.isascii() and c.isdecimal() else c for c in text
    )


def has_control_characters(text: str) -> bool:
    return CONTROL_CHARACTERS.search(text) is not None


def printable(text: str) -> str:
    """`text` without control characters (for an export of rows stored before the rule)."""
    return CONTROL_CHARACTERS.sub("", text)


def control_characters_error(field: str) -> ValidationError:
    """400 `validation_error`, reason `control_characters`, the field named in `fields`."""
    error = ValidationError(CONTROL_MESSAGE)
    error.extra = {"fields": {field: [error.message]}, "reason": "control_characters"}
    return error


def free_text_check(text: str | None, field: str = "reason") -> None:
    """The services' own check (whatever called them: the API, a desk page, the admin):
    400 `validation_error`, reason `too_long`, past FREE_TEXT_MAX characters."""
    if text is not None and len(text) > FREE_TEXT_MAX:
        error = ValidationError(TOO_LONG_MESSAGE, params={"limit": FREE_TEXT_MAX})
        error.extra = {"fields": {field: [error.message]}, "reason": "too_long"}
        raise error


def free_text(**kwargs: Any) -> serializers.CharField:
    """An input serializer's free-text field (a reason, a statement, a comment)."""
    return serializers.CharField(max_length=FREE_TEXT_MAX, **kwargs)


class FreeTextField(forms.CharField):
    """A desk form's free-text field: the API's limit."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=FREE_TEXT_MAX, **kwargs)


_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


class FormTextMiddleware:
    """A form posted to a page (the desk, the players' pages, the admin) with a control
    character in any field: 400 with the message (as the API's error body to a script that
    accepts JSON), before any view writes anything. (The API's bodies are JSON, checked by
    its parser.)"""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        content_type = request.META.get("CONTENT_TYPE", "").split(";", 1)[0].strip().lower()
        if (
            request.method == "POST"
            and content_type in _FORM_TYPES
            and not request.path.startswith("/api/")
        ):
            named = [
                name
                for name, values in request.POST.lists()
                if has_control_characters(name) or any(map(has_control_characters, values))
            ]
            if named:
                message = gettext(CONTROL_MESSAGE)
                if "application/json" in request.META.get("HTTP_ACCEPT", ""):
                    error = control_characters_error(named[0])
                    body = {"code": error.code, "message": message, **error.extra}
                    return JsonResponse({"error": body}, status=400)
                message = escape(message)
                body = (
                    f'<!doctype html><meta charset="utf-8"><title>{message}</title>'
                    f'<p class="error" data-error-code="control_characters">{message}</p>'
                )
                return HttpResponse(body, status=400, content_type="text/html; charset=utf-8")
        return self.get_response(request)
