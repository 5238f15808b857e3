"""Rule errors of the engine. Each names the rule it enforces (`rule`, a RULES.md reference)
and carries a machine-readable `code` that the API passes on."""

from __future__ import annotations


class RuleError(Exception):
    """An action or input breaks a rule of the game."""

    code = "illegal_action"

    def __init__(self, message: str, *, rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule


class IllegalActionError(RuleError):
    """The action is not allowed in the current state."""


class NotYourTurnError(RuleError):
    code = "not_your_turn"


class InvalidCardError(RuleError):
    code = "invalid_card"


class InvalidMeldError(RuleError):
    code = "invalid_meld"


class InvalidRulesetError(RuleError):
    code = "invalid_ruleset"


class InvalidDeckError(RuleError):
    code = "invalid_deck"
