"""Domain errors shared by every app. Services raise these, or an app's own pure domain
errors, registered here (`domain_errors_register`, in the app's AppConfig.ready) with the
error each one is at the API; one DRF exception handler (`config.exception_handler`)
renders them all as {"error": {"code", "message", ...}}."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext, pgettext


class ApplicationError(Exception):
    """A domain error with a machine-readable code and an HTTP status."""

    code = "application_error"
    status = 400

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        status: int | None = None,
        extra: dict[str, Any] | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        # A message with values is a template with named placeholders ("no club with id
        # %(club)s", marked with gettext_noop): `message` is it in English with the values,
        # and `translated_message` shows it in the reader's language.
        self.template = message
        self.params = dict(params or {})
        message = message % self.params if self.params else message
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status
        self.extra = extra or {}


class ValidationError(ApplicationError):
    code = "validation_error"
    status = 400


class NotFoundError(ApplicationError):
    code = "not_found"
    status = 404


class PermissionDeniedError(ApplicationError):
    code = "permission_denied"
    status = 403


class ConflictError(ApplicationError):
    code = "conflict"
    status = 409


class VersionConflictError(ConflictError):
    """The stream moved on since the client (or the service) read it."""

    code = "version_conflict"


# A pure domain (no Django, nor this module) raises errors of its own, which its services
# let through: each base class with the function giving the API's error for one of them.
_DOMAIN_ERRORS: dict[type[Exception], Callable[[Any], ApplicationError]] = {}


def domain_errors_register(
    base: type[Exception], as_application_error: Callable[[Any], ApplicationError]
) -> None:
    """`base` and its subclasses are refusals, shown as `as_application_error` says."""
    _DOMAIN_ERRORS[base] = as_application_error


def application_error(exc: BaseException) -> ApplicationError | None:
    """The error as the API and the pages show it: an ApplicationError as it is, a
    registered domain error as its app says; None for anything else."""
    if isinstance(exc, ApplicationError):
        return exc
    for base, as_application_error in _DOMAIN_ERRORS.items():
        if isinstance(exc, base):
            return as_application_error(exc)
    return None


def refusals() -> tuple[type[Exception], ...]:
    """What a caller of services catches for "the command was refused" (`except
    refusals() as exc`, then `application_error(exc)`): ApplicationError and every
    registered domain error."""
    return (ApplicationError, *_DOMAIN_ERRORS)


# A rule error's message may open with the rule it enforces: "6 knocking: deadwood 28 exceeds
# the knock limit 10" (RULES.md section 6, "knocking").
_RULE_PREFIX = re.compile(r"(\d+) ([^:]+): (.+)", re.DOTALL)


def translated_message(exc: BaseException) -> str:
    """An error's message in the active language: its template (a domain error's or a rule
    error's, the English text with named placeholders) looked up in the catalogue and filled
    with its values; a rule's reference goes last ("... (rule 6, knocking)"). As written
    where the catalogue lacks it. Codes and reasons stay English; only this text changes.
    A registered domain error reads as the API shows it (`application_error`)."""
    exc = application_error(exc) or exc
    template = getattr(exc, "template", None) or getattr(exc, "message", None) or str(exc)
    params = getattr(exc, "params", None) or {}
    # A value that is itself an error with a template (the cause a message names: "the
    # bracket cannot take the results recorded: %(problem)s") is in the reader's words too.
    params = {
        k: translated_message(v) if isinstance(v, BaseException) and hasattr(v, "template") else v
        for k, v in params.items()
    }
    prefix = _RULE_PREFIX.fullmatch(template) if getattr(exc, "rule", "") else None
    body = prefix[3] if prefix else template
    if not body:
        return body
    try:
        text = gettext(body) % params if params else gettext(body)
    except (KeyError, TypeError, ValueError):  # a catalogue's placeholder that does not fit
        text = body % params if params else body
    if prefix is None:
        return text
    return gettext("%(message)s (rule %(number)s, %(name)s)") % {
        "message": text,
        "number": prefix[1],
        "name": pgettext("a section of the rules", prefix[2]),
    }
