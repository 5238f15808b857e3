"""Events of a match: frozen dataclasses in the past tense holding JSON-able data only
(str, int, bool, lists, dicts, None). Randomness (deck order, salt) and the people behind
rulings are decided outside the engine and carried here, so a stream replays exactly."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from games.engine.errors import IllegalActionError


@dataclass(frozen=True)
class MatchStarted:
    ruleset: dict[str, Any]
    first_dealer: int
    mode: str  # "online" | "table"


@dataclass(frozen=True)
class HandDealt:
    hand_number: int
    dealer: int
    deck: list[str]  # 52 cards, top first (RULES 3 dealing order)
    salt: str
    commitment: str


@dataclass(frozen=True)
class UpcardPassed:
    seat: int


@dataclass(frozen=True)
class CardDrawn:
    seat: int
    source: str  # "stock" | "discard"
    card: str


@dataclass(frozen=True)
class CardDiscarded:
    seat: int
    card: str


@dataclass(frozen=True)
class Knocked:
    seat: int
    discard: str
    melds: list[list[str]]
    deadwood: list[str]
    deadwood_value: int
    gin: bool


@dataclass(frozen=True)
class DefenceLaidOut:
    seat: int
    melds: list[list[str]]
    layoffs: list[list[Any]]  # [card, index into the knocker's melds]
    deadwood: list[str]
    deadwood_value: int


@dataclass(frozen=True)
class HandScored:
    hand_number: int
    kind: str  # "gin" | "knock" | "undercut"
    knocker: int
    winner: int
    points: int
    knocker_deadwood: int
    defender_deadwood: int
    games: list[int]  # the games (1-based) the points went to


@dataclass(frozen=True)
class HandDrawn:
    hand_number: int


@dataclass(frozen=True)
class HandRecorded:
    hand_number: int
    knocker: int
    gin: bool
    knocker_deadwood: int
    defender_deadwood: int


@dataclass(frozen=True)
class GameWon:
    game: int
    winner: int
    scores: list[int]  # points per seat in that game, before bonuses
    bonuses: list[int]  # end-of-game bonuses per seat (RULES 8 variants)


@dataclass(frozen=True)
class MatchFinished:
    """The match ends with a winner; after a correction or a past void also when the
    re-derived match ends, or ends with another winner than before."""

    winner: int
    reason: str  # "games" | "forfeit" | "resigned"


@dataclass(frozen=True)
class HandVoided:
    """The hand in play voided (it is dealt again), or, when `hand_number` is a finished
    hand's (no hand of that number is in play), that past hand voided: it no longer counts
    and the match is re-derived without it."""

    hand_number: int
    reason: str
    by: str


@dataclass(frozen=True)
class HandCorrected:
    """The entry of a table-mode hand replaced; the match is re-derived from it. `before`
    and `after` are entries: {"kind": "gin" | "knock" | "undercut" | "drawn", "drawn",
    "knocker" (seat), "gin", "knocker_deadwood", "defender_deadwood", "winner" (seat),
    "points"}; a drawn hand's knocker, deadwoods, winner and points are None."""

    hand_number: int
    before: dict[str, Any]
    after: dict[str, Any]
    reason: str
    by: str


@dataclass(frozen=True)
class MatchReopened:
    """A finished match goes back to play: a correction or a past void of `hand_number`
    (`reason` "correction" | "void") left no game decision that ends it."""

    hand_number: int
    reason: str


@dataclass(frozen=True)
class ScoreAdjusted:
    seat: int
    game: int
    points: int
    reason: str
    by: str


@dataclass(frozen=True)
class MatchForfeited:
    winner: int
    reason: str
    by: str


@dataclass(frozen=True)
class PlayerResigned:
    seat: int


@dataclass(frozen=True)
class MatchCancelled:
    """The match ends unplayed: no winner, nothing counts (finish_reason "cancelled")."""

    reason: str
    by: str


@dataclass(frozen=True)
class DisputeOpened:
    """A player of the match disputes hand `hand_number` (None: the whole match). Disputes
    are records only: they change no score (a ruling that settles one is its own event)."""

    dispute: int  # 1, 2, ... within the match
    seat: int
    hand_number: int | None
    statement: str


@dataclass(frozen=True)
class DisputeCommented:
    dispute: int
    comment: str
    by: str  # a player's or organiser's name


@dataclass(frozen=True)
class DisputeResolved:
    dispute: int
    outcome: str  # "ruled" (a ruling event comes just before) | "dismissed"
    reason: str
    by: str


Event = (
    MatchStarted
    | HandDealt
    | UpcardPassed
    | CardDrawn
    | CardDiscarded
    | Knocked
    | DefenceLaidOut
    | HandScored
    | HandDrawn
    | HandRecorded
    | GameWon
    | MatchFinished
    | HandVoided
    | HandCorrected
    | MatchReopened
    | ScoreAdjusted
    | MatchForfeited
    | PlayerResigned
    | MatchCancelled
    | DisputeOpened
    | DisputeCommented
    | DisputeResolved
)

EVENT_TYPES: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        MatchStarted,
        HandDealt,
        UpcardPassed,
        CardDrawn,
        CardDiscarded,
        Knocked,
        DefenceLaidOut,
        HandScored,
        HandDrawn,
        HandRecorded,
        GameWon,
        MatchFinished,
        HandVoided,
        HandCorrected,
        MatchReopened,
        ScoreAdjusted,
        MatchForfeited,
        PlayerResigned,
        MatchCancelled,
        DisputeOpened,
        DisputeCommented,
        DisputeResolved,
    )
}


def event_type(event: Event) -> str:
    """The stored type name of an event: its class name."""
    return type(event).__name__


def event_to_dict(event: Event) -> dict[str, Any]:
    """The event's data only (a deep copy, safe to serialise or mutate; tuples as lists)."""
    return {name: _copy(getattr(event, name)) for name in _field_names(type(event))}


def event_from_dict(type: str, data: dict[str, Any]) -> Event:  # noqa: A002 - stored name
    """Rebuild an event from its stored type and data."""
    cls = EVENT_TYPES.get(type)
    if cls is None:
        raise IllegalActionError("unknown event type %(type)s", rule="events", type=repr(type))
    names = _field_names(cls)
    if len(data) != len(names) or not all(name in data for name in names):
        raise IllegalActionError(
            "event %(type)s needs fields %(names)s, got %(got)s",
            rule="events",
            type=type,
            names=sorted(names),
            got=sorted(data),
        )
    event: Event = cls(**_copy(data))
    return event


def _field_names(cls: type[Event]) -> tuple[str, ...]:
    """The event class's field names, in order (looked up once per class)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


_FIELD_NAMES: dict[type[Event], tuple[str, ...]] = {}


def _copy(value: Any) -> Any:
    # Tuples from a caller become lists so that round-tripped events compare equal.
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_copy(v) for v in value]
    return value
