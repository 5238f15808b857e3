"""The errors the games app's services raise besides the kernel's (core.errors): the rules
engine's, named here so other apps need not reach into the engine."""

from core.errors import ConflictError, ValidationError
from games.engine.errors import (
    IllegalActionError,
    InvalidRulesetError,
    NotYourTurnError,
    RuleError,
)

__all__ = [
    "DisputeWindowClosedError",
    "IllegalActionError",
    "InvalidRulesetError",
    "NotYourTurnError",
    "RuleError",
    "not_a_player_error",
]


class DisputeWindowClosedError(ConflictError):
    """A dispute opened later after the match's end than its setting allows (raised by the
    match policy, games/policy.py: e.g. the tournament's dispute window)."""

    code = "dispute_window_closed"


def not_a_player_error(field: str, message: str) -> ValidationError:
    """A field that names a player holds someone who does not play in the match: the
    documented `validation_error`, the field named in `fields`, `reason` not_a_player."""
    return ValidationError(message, extra={"fields": {field: [message]}, "reason": "not_a_player"})
