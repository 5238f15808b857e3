"""The errors the games app's services raise besides the kernel's (core.errors): the rules
engine's, named here so other apps need not reach into the engine."""

from games.engine.errors import (
    IllegalActionError,
    InvalidRulesetError,
    NotYourTurnError,
    RuleError,
)

__all__ = ["IllegalActionError", "InvalidRulesetError", "NotYourTurnError", "RuleError"]
