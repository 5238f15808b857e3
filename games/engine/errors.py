"""Rule errors of the engine. Each names the rule it enforces (`rule`, a RULES.md reference)
and carries a machine-readable `code` that the API passes on."""

from __future__ import annotations


class RuleError(Exception):
    """An action or input breaks a rule of the game."""

    code = "illegal_action"
    # 400: the rules refuse the move as such. 409 (`conflict`, this code as its `reason`):
    # the state of the match refuses any such command (it is over).
    status = 400

    def __init__(self, message: str, *, rule: str = "", **params: object) -> None:
        # `message` is a template with named placeholders filled from `params` ("%(card)s is
        # not in your hand"): str(error) is the English text; the API and the desk show the
        # template's translation (games.rule_messages lists them for the catalogues).
        super().__init__(message % params if params else message)
        self.template = message
        self.params = params
        self.rule = rule


class IllegalActionError(RuleError):
    """The action is not allowed in the current state."""


class MatchFinishedError(IllegalActionError):
    """A move or ruling on a match that is over (rule 8): refused by the match's state."""

    code = "match_finished"
    status = 409


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
