"""The event store's own errors. It imports no app of ours, so these are not the API's
domain errors: the one exception handler (`config.exception_handler`) maps them to
`version_conflict` (409), `validation_error` (400) and `event_immutable` (409)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_noop


class EventStoreError(Exception):
    """Something the event store refused. Its message is a template with named
    placeholders and the values apart (`template`, `params`), marked with gettext_noop: the
    exception handler shows it in the reader's language (core.errors.translated_message)."""

    def __init__(self, template: str, **params: Any) -> None:
        super().__init__(template % params if params else template)
        self.template, self.params = template, params


class InvalidEventError(EventStoreError, ValueError):
    """An append (or a read) asked for something the store cannot hold or find: a bad
    stream id, version or position, data that is not JSON."""


class ImmutableEventError(EventStoreError):
    """Someone tried to change or delete a stored event."""


class ConcurrencyError(EventStoreError):
    """The stream is not at the version the writer expected: someone else appended first."""

    def __init__(self, *, stream_id: str, expected_version: int, current_version: int) -> None:
        super().__init__(
            gettext_noop("Stream %(stream)s is at version %(current)s, not %(expected)s."),
            stream=stream_id,
            current=current_version,
            expected=expected_version,
        )
        self.stream_id = stream_id
        self.expected_version = expected_version
        self.current_version = current_version
