"""Actions (commands) a match accepts. `Deal` and the rulings come from the service layer;
pass / draw / discard / knock come from players through `action_from_dict`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.errors import IllegalActionError


class InvalidActionError(IllegalActionError):
    """The action body itself is malformed (wrong type, missing or extra fields)."""

    code = "validation_error"


@dataclass(frozen=True)
class Deal:
    deck: Sequence[str]
    salt: str


@dataclass(frozen=True)
class Pass:
    seat: int


@dataclass(frozen=True)
class Draw:
    seat: int
    source: str  # "stock" | "discard"


@dataclass(frozen=True)
class Discard:
    seat: int
    card: str


@dataclass(frozen=True)
class Knock:
    seat: int
    card: str
    melds: Sequence[Sequence[str]] | None = None


@dataclass(frozen=True)
class RecordHand:
    knocker: int
    gin: bool
    knocker_deadwood: int
    defender_deadwood: int


@dataclass(frozen=True)
class RecordDrawnHand:
    pass


@dataclass(frozen=True)
class VoidHand:
    """Void a hand: by default the hand in play (it is dealt again by the same dealer);
    with `hand_number`, any finished hand, online or table, which then no longer counts
    (the match is re-derived without it, see `corrections`)."""

    reason: str
    by: str
    hand_number: int | None = None


@dataclass(frozen=True)
class CorrectHand:
    """Replace the entry of a hand recorded in table mode (RecordHand / RecordDrawnHand)
    by what really happened; the match is re-derived as if it had been recorded so.
    `drawn=True` takes no knocker, gin or deadwood; otherwise they are checked exactly as
    RecordHand's. `knocker` is a seat (0 or 1)."""

    hand_number: int
    reason: str
    by: str
    drawn: bool = False
    knocker: int | None = None
    gin: bool = False
    knocker_deadwood: int | None = None
    defender_deadwood: int | None = None


@dataclass(frozen=True)
class AdjustScore:
    seat: int
    game: int
    points: int
    reason: str
    by: str


@dataclass(frozen=True)
class Forfeit:
    winner: int
    reason: str
    by: str


@dataclass(frozen=True)
class Resign:
    seat: int


@dataclass(frozen=True)
class CancelMatch:
    """An organiser's ruling that the match will not be played (e.g. its round re-paired)."""

    reason: str
    by: str


Action = (
    Deal
    | Pass
    | Draw
    | Discard
    | Knock
    | RecordHand
    | RecordDrawnHand
    | VoidHand
    | CorrectHand
    | AdjustScore
    | Forfeit
    | Resign
    | CancelMatch
)

_PLAYER_FIELDS = {
    "pass": set(),
    "draw": {"source"},
    "discard": {"card"},
    "knock": {"card", "melds"},
}


def action_from_dict(seat: int, data: dict[str, Any]) -> Action:
    """A player's action from an API body such as {"type": "draw", "source": "stock"}.
    Types: pass, draw, discard, knock (optional "melds": list of lists of card codes).
    Only the shape is checked here; the rules are checked by `decide`."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise InvalidActionError('an action is an object with a "type"', rule="actions")
    kind = data["type"]
    allowed = _PLAYER_FIELDS.get(kind)
    if allowed is None:
        raise InvalidActionError(
            "unknown action type %(kind)s: use pass, draw, discard or knock",
            rule="actions",
            kind=repr(kind),
        )
    extra = set(data) - allowed - {"type"}
    if extra:
        raise InvalidActionError(
            "unexpected field(s) for %(kind)s: %(fields)s",
            rule="actions",
            kind=kind,
            fields=", ".join(sorted(extra)),
        )
    if kind == "pass":
        return Pass(seat=seat)
    if kind == "draw":
        source = data.get("source")
        if source not in ("stock", "discard"):
            raise InvalidActionError('draw needs "source": "stock" or "discard"', rule="5 draw")
        return Draw(seat=seat, source=source)
    card = data.get("card")
    if not isinstance(card, str):
        raise InvalidActionError(
            '%(kind)s needs "card", a card code like "7H"', rule="actions", kind=kind
        )
    if kind == "discard":
        return Discard(seat=seat, card=card)
    return Knock(seat=seat, card=card, melds=_melds(data.get("melds")))


def _melds(value: Any) -> tuple[tuple[str, ...], ...] | None:
    if value is None:
        return None
    ok = isinstance(value, list | tuple) and all(
        isinstance(m, list | tuple) and all(isinstance(c, str) for c in m) for m in value
    )
    if not ok:
        raise InvalidActionError(
            'knock "melds" must be a list of lists of card codes', rule="6 knocking"
        )
    return tuple(tuple(m) for m in value)
