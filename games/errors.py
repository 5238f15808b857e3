"""The errors the games app's services raise besides the kernel's (core.errors): the rules
engine's, named here so other apps need not reach into the engine."""

from core.errors import ConflictError
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
]


class DisputeWindowClosedError(ConflictError):
    """A dispute opened later after the match's end than its setting allows (raised by a
    receiver of games.signals.dispute_opening, e.g. the tournament's dispute window)."""

    code = "dispute_window_closed"
