"""A tournament's events, typed: one frozen dataclass per event type (past tense), built
from what the stream stores (`event_from_stored`). The stored data keeps its shape (and its
hash); these types are how the domain reads it. Fields the fold does not need stay in
`data` for the readers that show them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class TournamentCreated:
    tiebreaks: tuple[str, ...] = ()
    format: str = ""
    data: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class PlayerRegistered:
    player: int
    data: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class PlayerCheckedIn:
    player: int
    data: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class PlayerWithdrawn:
    player: int
    data: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class TournamentStarted:
    data: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class PairingEntry:
    table: int
    player1: int
    player2: int | None


@dataclass(frozen=True)
class RoundPaired:
    round: int
    pairings: tuple[PairingEntry, ...]
    repaired: bool = False  # RoundRepaired: the round's earlier pairings and results go
    data: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class ResultEntry:
    round: int
    table: int
    player1: int
    player2: int | None
    winner: int | None
    games1: int = 0
    games2: int = 0
    points1: int = 0
    points2: int = 0


@dataclass(frozen=True)
class ResultRecorded:
    result: ResultEntry
    data: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class ResultCorrected:
    round: int
    table: int
    after: ResultEntry | None  # None: the match is back in play, no result for now
    data: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class SettingsChanged:
    changes: dict[str, Any]  # name -> {"old", "new"}
    data: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class RoundCompleted:
    round: int
    data: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class TournamentFinished:
    data: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Noted:
    """An event the fold has nothing to do with (a ruling's note, a deadline moved...)."""

    type: str
    data: dict[str, Any] = field(default_factory=dict, compare=False)


TournamentEvent = (
    TournamentCreated
    | PlayerRegistered
    | PlayerCheckedIn
    | PlayerWithdrawn
    | TournamentStarted
    | RoundPaired
    | ResultRecorded
    | ResultCorrected
    | SettingsChanged
    | RoundCompleted
    | TournamentFinished
    | Noted
)


def _result(d: dict[str, Any]) -> ResultEntry:
    return ResultEntry(
        round=d["round"],
        table=d["table"],
        player1=d["player1"],
        player2=d["player2"],
        winner=d["winner"],
        games1=d.get("games1", 0),
        games2=d.get("games2", 0),
        points1=d.get("points1", 0),
        points2=d.get("points2", 0),
    )


def _pairings(d: dict[str, Any]) -> tuple[PairingEntry, ...]:
    return tuple(
        PairingEntry(table=p.get("table", n), player1=p["player1"], player2=p["player2"])
        for n, p in enumerate(d["pairings"], start=1)
    )


def event_from_stored(type_: str, data: dict[str, Any]) -> TournamentEvent:
    """The typed event of a stored one; a type the fold does not use becomes `Noted`."""
    d = data
    match type_:
        case "TournamentCreated":
            return TournamentCreated(
                tiebreaks=tuple(d.get("tiebreaks") or ()), format=d.get("format", ""), data=d
            )
        case "PlayerRegistered":
            return PlayerRegistered(player=d["player"], data=d)
        case "PlayerCheckedIn":
            return PlayerCheckedIn(player=d["player"], data=d)
        case "PlayerWithdrawn":
            return PlayerWithdrawn(player=d["player"], data=d)
        case "TournamentStarted":
            return TournamentStarted(data=d)
        case "RoundPaired" | "RoundRepaired":
            return RoundPaired(
                round=d["round"],
                pairings=_pairings(d),
                repaired=type_ == "RoundRepaired",
                data=d,
            )
        case "ResultRecorded":
            return ResultRecorded(result=_result(d), data=d)
        case "ResultCorrected":
            after = d.get("after")
            return ResultCorrected(
                round=d["round"],
                table=d["table"],
                after=_result(after) if after is not None else None,
                data=d,
            )
        case "SettingsChanged":
            return SettingsChanged(changes=dict(d.get("changes") or {}), data=d)
        case "RoundCompleted":
            return RoundCompleted(round=d.get("round", 0), data=d)
        case "TournamentFinished":
            return TournamentFinished(data=d)
        case _:
            return Noted(type=type_, data=d)


def event_type_of(event: TournamentEvent) -> str:
    if isinstance(event, Noted):
        return event.type
    if isinstance(event, RoundPaired) and event.repaired:
        return "RoundRepaired"
    return type(event).__name__
