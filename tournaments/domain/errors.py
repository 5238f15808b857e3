"""The named errors `decide` raises. The services let them through; the API shows each as
tournaments.errors says (registered with the kernel at start-up: core.errors), with the
same code, reason and extra fields: a domain error says what rule refused the command, not
how the API shows it."""

from __future__ import annotations

from typing import Any


class TournamentError(Exception):
    """A command the tournament refuses. `code` is the service's own code (shown as the
    error's reason); `extra` goes into the error body."""

    code: str | None = None

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        extra: dict[str, Any] | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        # A template with named placeholders and its values apart, for the catalogues.
        self.template, self.params = message, dict(params or {})
        message = message % self.params if self.params else message
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.extra = dict(extra or {})


class TournamentConflictError(TournamentError):
    """Refused because of the tournament's state (finished, in play, not next...): 409."""


class TournamentInputError(TournamentError):
    """Refused because of what the command asks (a pairing that names nobody...): 400."""


class SettingFixedError(TournamentConflictError):
    """A setting that may no longer change (the tournament has started)."""

    code = "setting_fixed"

    def __init__(self, name: str) -> None:
        # `name` is the setting's key ("play_mode"): the services show it by its label
        # (tournaments.setting_labels), in the reader's language.
        super().__init__(
            'the setting "%(setting)s" cannot change once the tournament has started',
            params={"setting": name},
        )
        self.name = name
