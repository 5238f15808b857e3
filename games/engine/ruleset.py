"""The ruleset of a match (RULES.md section 9): plain data, copied into each match's first
event so that a match always replays under the rules it was played with."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from games.engine.errors import InvalidRulesetError

# The most deadwood ten cards can hold (RULES 2): no meld, eight tens and two nines. The
# one limit of a deadwood count, for the engine, the API's fields and the desk's forms.
MAX_DEADWOOD = 98

# Accepted ranges; anything outside is a typo rather than a real club variant.
_INT_RANGES: dict[str, tuple[int, int]] = {
    "knock_limit": (0, MAX_DEADWOOD),
    "gin_bonus": (0, 1000),
    "undercut_bonus": (0, 1000),
    "game_target": (1, 100_000),
    "game_bonus": (0, 100_000),
    "box_bonus": (0, 100_000),
}
_BOOLS = ("end_when_decided", "discard_restriction", "shutout_doubles")
_GAME_COUNTS = (1, 3)  # 3 = Hollywood, 1 = plain gin (RULES 8)


@dataclass(frozen=True)
class Ruleset:
    knock_limit: int = 10
    gin_bonus: int = 25
    undercut_bonus: int = 10
    game_target: int = 100
    games: int = 3
    end_when_decided: bool = False
    discard_restriction: bool = False
    game_bonus: int = 0
    box_bonus: int = 0
    shutout_doubles: bool = False

    def __post_init__(self) -> None:
        for name, (low, high) in _INT_RANGES.items():
            value = getattr(self, name)
            if not _is_int(value) or not low <= value <= high:
                raise InvalidRulesetError(
                    "ruleset %(name)s must be an integer from %(low)s to %(high)s, not %(value)s",
                    rule="9 ruleset",
                    name=name,
                    low=low,
                    high=high,
                    value=repr(value),
                )
        if not _is_int(self.games) or self.games not in _GAME_COUNTS:
            raise InvalidRulesetError(
                "ruleset games must be 3 (Hollywood) or 1 (plain gin), not %(games)s",
                rule="8 plain gin variant",
                games=repr(self.games),
            )
        for name in _BOOLS:
            if not isinstance(getattr(self, name), bool):
                raise InvalidRulesetError(
                    "ruleset %(name)s must be true or false, not %(value)s",
                    rule="9 ruleset",
                    name=name,
                    value=repr(getattr(self, name)),
                )

    def to_dict(self) -> dict[str, Any]:
        # Every field is a plain int or bool: no deep copy needed (asdict's was most of it).
        return {name: getattr(self, name) for name in _FIELD_NAMES}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> Ruleset:
        """Missing keys take their defaults; unknown keys or bad values raise
        InvalidRulesetError."""
        if d is None:
            return cls()
        if not isinstance(d, dict):
            raise InvalidRulesetError("a ruleset must be an object", rule="9 ruleset")
        known = {f.name for f in fields(cls)}
        unknown = sorted(str(k) for k in d if k not in known)
        if unknown:
            raise InvalidRulesetError(
                "unknown ruleset option(s): %(options)s",
                rule="9 ruleset",
                options=", ".join(unknown),
            )
        return cls(**d)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_FIELD_NAMES = tuple(f.name for f in fields(Ruleset))
