"""A hand as people enter it (the desk's form and sheet, a player's phone, the API, a
correction): drawn, or who knocked (a player's id), gin, and both deadwoods. One value for
every way a hand is entered: its shape is checked here, once, and it becomes the engine's
command for a match (`action`, `correction`: the knocker's seat looked up). The rules
(deadwood limits, gin, undercuts) are the engine's to check."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from core.errors import ValidationError
from games.engine import actions as A
from games.errors import not_a_player_error

KNOCKER_NOT_A_PLAYER = "the knocker must be a player of the match"
HAND_FIELDS = ("drawn", "knocker", "gin", "knocker_deadwood", "defender_deadwood")


class Seats(Protocol):
    """A match as an entry needs it: the seat (0, 1) of a player's id, None for others."""

    def seat_of(self, player_id: int | None) -> int | None: ...


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


@dataclass(frozen=True)
class HandEntry:
    """Drawn, or knocked by `knocker` (a player's id). A drawn hand carries nothing else:
    whatever else it is given is dropped, so two entries of one drawn hand are equal."""

    drawn: bool = False
    knocker: int | None = None
    gin: bool = False
    knocker_deadwood: int | None = None
    defender_deadwood: int | None = None

    def __post_init__(self) -> None:
        drawn = bool(self.drawn)
        object.__setattr__(self, "drawn", drawn)
        object.__setattr__(self, "gin", bool(self.gin) and not drawn)
        if drawn:
            for name in ("knocker", "knocker_deadwood", "defender_deadwood"):
                object.__setattr__(self, name, None)

    @classmethod
    def from_values(cls, values: Mapping[str, Any]) -> HandEntry:
        """From a form's or a serializer's cleaned values (other keys are left), the
        knocker a player (or a player's id, or None)."""
        picked = {name: values[name] for name in HAND_FIELDS if name in values}
        knocker = picked.get("knocker")
        if knocker is not None and not isinstance(knocker, int):
            picked["knocker"] = knocker.pk
        return cls(**picked)

    def values(self) -> tuple[Any, ...]:
        """What the hand is, gin aside (it follows from a deadwood of 0, RULES 6): two
        entries of the same hand have the same values."""
        if self.drawn:
            return (True,)
        return (False, self.knocker, self.knocker_deadwood, self.defender_deadwood)

    def action(self, match: Seats) -> A.RecordHand | A.RecordDrawnHand:
        """The engine's command recording this hand in `match`."""
        if self.drawn:
            return A.RecordDrawnHand()
        seat, knocker_deadwood, defender_deadwood = self._scored(match, KNOCKER_NOT_A_PLAYER)
        return A.RecordHand(
            knocker=seat,
            gin=self.gin,
            knocker_deadwood=knocker_deadwood,
            defender_deadwood=defender_deadwood,
        )

    def correction(self, match: Seats, *, hand_number: int, reason: str, by: str) -> A.CorrectHand:
        """The engine's command replacing hand `hand_number`'s entry in `match` by this."""
        if self.drawn:
            return A.CorrectHand(hand_number=hand_number, reason=reason, by=by, drawn=True)
        seat, knocker_deadwood, defender_deadwood = self._scored(
            match, "correct_hand needs the knocker, a player of the match (or drawn: true)"
        )
        return A.CorrectHand(
            hand_number=hand_number,
            reason=reason,
            by=by,
            knocker=seat,
            gin=self.gin,
            knocker_deadwood=knocker_deadwood,
            defender_deadwood=defender_deadwood,
        )

    def _scored(self, match: Seats, not_a_player: str) -> tuple[int, int, int]:
        """The knocker's seat and both deadwoods, checked: a player of the match, counts."""
        seat = match.seat_of(self.knocker)
        if seat is None:
            raise not_a_player_error("knocker", not_a_player)
        knocker_deadwood, defender_deadwood = self.knocker_deadwood, self.defender_deadwood
        if not _is_count(knocker_deadwood) or not _is_count(defender_deadwood):
            raise ValidationError(
                "knocker_deadwood and defender_deadwood are counts of 0 or more", code="deadwood"
            )
        assert knocker_deadwood is not None and defender_deadwood is not None  # for mypy
        return seat, knocker_deadwood, defender_deadwood
