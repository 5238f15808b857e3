"""A tournament's events, typed: one frozen dataclass per event type (past tense).

`decide` returns them; the repository stores each as (type, data) with `event_to_stored`
and reads them back with `event_from_stored` (which also upcasts older shapes). The stored
types and the shape of their data are the ones the stream has always had (exports and
webhooks read them), plus the keys the repository adds to every event: `by` (who decided:
{"id", "username"} or None for the scheduler) and `reason`.

`at` is when the event was recorded (the store's clock): set when read back, None while
decided; the rows a projection writes take their times from it, so a rebuild writes the
same times.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

# --- parts ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PairingEntry:
    table: int
    player1: int
    player2: int | None  # None: a bye
    match: str | None = None  # the match's id (None for a bye, or before it is made)
    match_version: int = 0  # the match stream's version when paired (started = more)
    slot: str | None = None  # double elimination: the bracket's match ("W1-1", "L2-3", "GF1")


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
    match: str | None = None
    result: str = ""  # played, forfeit, bye


# --- events ---------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class _Event:
    by: int | None = field(default=None, compare=False)  # the deciding user's id
    at: dt.datetime | None = field(default=None, compare=False)
    reason: str = field(default="", compare=False)


@dataclass(frozen=True, kw_only=True)
class TournamentCreated(_Event):
    format: str = ""
    tiebreaks: tuple[str, ...] = ()
    name: str = ""
    club: int | None = None
    ruleset: dict[str, Any] = field(default_factory=dict, compare=False)
    rounds: int | None = None
    play_mode: str = "online"
    time_zone: str = "UTC"
    language: str = ""  # prints and the wall screen ("": the club's, else English)
    organisers: tuple[int, ...] = ()
    is_public: bool = True
    check_in_required: bool = True
    starts_at: str | None = None  # ISO 8601, UTC
    round_starts: tuple[str, ...] = ()
    round_interval: float | None = None  # seconds
    round_duration: float | None = None
    turn_time: float | None = None
    dispute_window: float | None = None
    # How a bye counts (tournaments.pairing.standings): stored with the tournament, so a
    # rebuild never changes an old tournament's standings (absent: today's defaults).
    bye_points: str = "win"
    bye_buchholz: str = "nothing"
    bracket_reset: bool = True  # double elimination: a grand final lost by the winners' side
    top_cut: int | None = None  # Swiss, then the top K (4, 8, 16) play a knockout
    third_place: bool = False  # the top cut's semifinal losers play for third


@dataclass(frozen=True, kw_only=True)
class ForbiddenPairAdded(_Event):
    """An organiser marked two players who must not meet (one household, a team)."""

    players: tuple[int, int]


@dataclass(frozen=True, kw_only=True)
class ForbiddenPairRemoved(_Event):
    players: tuple[int, int]


@dataclass(frozen=True, kw_only=True)
class PlayerRegistered(_Event):
    player: int
    late: bool = False


@dataclass(frozen=True, kw_only=True)
class PlayerCheckedIn(_Event):
    player: int


@dataclass(frozen=True, kw_only=True)
class PlayerCheckInUndone(_Event):
    player: int


@dataclass(frozen=True, kw_only=True)
class PlayerWithdrawn(_Event):
    player: int


@dataclass(frozen=True, kw_only=True)
class TournamentStarted(_Event):
    seeds: tuple[int, ...] = ()
    rounds: int | None = None


@dataclass(frozen=True, kw_only=True)
class RoundPaired(_Event):
    round: int
    pairings: tuple[PairingEntry, ...]
    deadline: str | None = None
    repaired: bool = False  # stored as RoundRepaired: the round's earlier pairings go
    replaced: tuple[str, ...] = ()  # RoundRepaired: the cancelled matches
    by_hand: bool = False  # RoundRepaired: the organiser set the pairs
    # Forbidden pairs the pairing could not keep apart (no valid pairing avoided them), and
    # the hand-set pairs an organiser confirmed although they repeat or break one.
    forbidden_met: tuple[tuple[int, int], ...] = ()
    confirmed: tuple[dict[str, Any], ...] = ()
    top_cut: tuple[int, ...] = ()  # the first knockout round of a top cut: its seeds
    lots: tuple[int, ...] = ()  # the draw of lots that broke ties at the cut line


@dataclass(frozen=True, kw_only=True)
class ResultRecorded(_Event):
    result: ResultEntry


@dataclass(frozen=True, kw_only=True)
class ResultRuled(_Event):
    """An organiser (or the deadline job) ruled a match in play won by forfeit; the result
    itself follows as ResultRecorded once the match's forfeit has been recorded."""

    round: int
    table: int
    winner: int
    match: str | None = None


@dataclass(frozen=True, kw_only=True)
class ResultCorrected(_Event):
    round: int
    table: int
    before: dict[str, Any] = field(default_factory=dict, compare=False)
    after: ResultEntry | None = None  # None: the match is back in play, no result for now
    next_round: int | None = None
    repair_possible: bool | None = None


@dataclass(frozen=True, kw_only=True)
class SettingsChanged(_Event):
    changes: dict[str, Any]  # name -> {"old", "new"} (JSON values: seconds, ISO times)


@dataclass(frozen=True, kw_only=True)
class RoundDeadlineMoved(_Event):
    round: int
    deadline: str | None
    previous: str | None = None


@dataclass(frozen=True, kw_only=True)
class RoundCompleted(_Event):
    round: int


@dataclass(frozen=True, kw_only=True)
class TournamentFinished(_Event):
    rounds: int | None = None


@dataclass(frozen=True, kw_only=True)
class Noted(_Event):
    """A stored type this code does not know (kept, never folded)."""

    type: str
    data: dict[str, Any] = field(default_factory=dict, compare=False)


TournamentEvent = (
    TournamentCreated
    | ForbiddenPairAdded
    | ForbiddenPairRemoved
    | PlayerRegistered
    | PlayerCheckedIn
    | PlayerCheckInUndone
    | PlayerWithdrawn
    | TournamentStarted
    | RoundPaired
    | ResultRecorded
    | ResultRuled
    | ResultCorrected
    | SettingsChanged
    | RoundDeadlineMoved
    | RoundCompleted
    | TournamentFinished
    | Noted
)

# Every stored type, in the order a tournament meets them (webhooks and the schema list them).
EVENT_TYPES = (
    "TournamentCreated",
    "PlayerRegistered",
    "PlayerCheckedIn",
    "PlayerCheckInUndone",
    "PlayerWithdrawn",
    "TournamentStarted",
    "RoundPaired",
    "RoundRepaired",
    "ResultRecorded",
    "ResultRuled",
    "SettingsChanged",
    "ResultCorrected",
    "RoundDeadlineMoved",
    "RoundCompleted",
    "TournamentFinished",
    "ForbiddenPairAdded",
    "ForbiddenPairRemoved",
)


# --- reading stored events ------------------------------------------------------------------


def result_from_data(d: dict[str, Any]) -> ResultEntry:
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
        match=d.get("match"),
        result=d.get("result") or "",
    )


def result_to_data(r: ResultEntry) -> dict[str, Any]:
    return {
        "round": r.round,
        "table": r.table,
        "player1": r.player1,
        "player2": r.player2,
        "winner": r.winner,
        "games1": r.games1,
        "games2": r.games2,
        "points1": r.points1,
        "points2": r.points2,
        "match": r.match,
        "result": r.result,
    }


def _pairings(d: dict[str, Any]) -> tuple[PairingEntry, ...]:
    return tuple(
        PairingEntry(
            table=p.get("table", n),
            player1=p["player1"],
            player2=p["player2"],
            match=p.get("match"),
            match_version=p.get("match_version", 0),
            slot=p.get("slot"),
        )
        for n, p in enumerate(d["pairings"], start=1)
    )


def _common(d: dict[str, Any], at: dt.datetime | None) -> dict[str, Any]:
    who = d.get("by")
    return {
        "by": who.get("id") if isinstance(who, dict) else None,
        "at": at,
        "reason": d.get("reason") or "",
    }


def event_from_stored(
    type_: str, data: dict[str, Any], at: dt.datetime | None = None
) -> TournamentEvent:
    """The typed event of a stored one (older shapes upcast: missing keys take the values
    the code of their time implied)."""
    d = data
    c = _common(d, at)
    match type_:
        case "TournamentCreated":
            return TournamentCreated(
                format=d.get("format", ""),
                tiebreaks=tuple(d.get("tiebreaks") or ()),
                name=d.get("name", ""),
                club=d.get("club"),
                ruleset=d.get("ruleset") or {},
                rounds=d.get("rounds"),
                play_mode=d.get("play_mode", "online"),
                time_zone=d.get("time_zone", "UTC"),
                language=d.get("language", ""),
                organisers=tuple(d.get("organisers") or ()),
                is_public=d.get("is_public", True),
                check_in_required=d.get("check_in_required", True),
                starts_at=d.get("starts_at"),
                round_starts=tuple(d.get("round_starts") or ()),
                round_interval=d.get("round_interval"),
                round_duration=d.get("round_duration"),
                turn_time=d.get("turn_time"),
                dispute_window=d.get("dispute_window"),
                bye_points=d.get("bye_points", "win"),
                bye_buchholz=d.get("bye_buchholz", "nothing"),
                bracket_reset=d.get("bracket_reset", True),
                top_cut=d.get("top_cut"),
                third_place=bool(d.get("third_place")),
                **c,
            )
        case "ForbiddenPairAdded" | "ForbiddenPairRemoved":
            a, b = sorted(d["players"])
            cls = ForbiddenPairAdded if type_ == "ForbiddenPairAdded" else ForbiddenPairRemoved
            return cls(players=(a, b), **c)
        case "PlayerRegistered":
            return PlayerRegistered(player=d["player"], late=bool(d.get("late")), **c)
        case "PlayerCheckedIn":
            return PlayerCheckedIn(player=d["player"], **c)
        case "PlayerCheckInUndone":
            return PlayerCheckInUndone(player=d["player"], **c)
        case "PlayerWithdrawn":
            return PlayerWithdrawn(player=d["player"], **c)
        case "TournamentStarted":
            return TournamentStarted(seeds=tuple(d.get("seeds") or ()), rounds=d.get("rounds"), **c)
        case "RoundPaired" | "RoundRepaired":
            return RoundPaired(
                round=d["round"],
                pairings=_pairings(d),
                deadline=d.get("deadline"),
                repaired=type_ == "RoundRepaired",
                replaced=tuple(d.get("replaced") or ()),
                by_hand=bool(d.get("by_hand")),
                forbidden_met=tuple(tuple(sorted(p)) for p in d.get("forbidden_met") or ()),
                confirmed=tuple(d.get("confirmed") or ()),
                top_cut=tuple(d.get("top_cut") or ()),
                lots=tuple(d.get("lots") or ()),
                **c,
            )
        case "ResultRecorded":
            return ResultRecorded(result=result_from_data(d), **c)
        case "ResultRuled":
            return ResultRuled(
                round=d["round"], table=d["table"], winner=d["winner"], match=d.get("match"), **c
            )
        case "ResultCorrected":
            after = d.get("after")
            return ResultCorrected(
                round=d["round"],
                table=d["table"],
                before=d.get("before") or {},
                after=result_from_data(after) if after is not None else None,
                next_round=d.get("next_round"),
                repair_possible=d.get("repair_possible"),
                **c,
            )
        case "SettingsChanged":
            return SettingsChanged(changes=dict(d.get("changes") or {}), **c)
        case "RoundDeadlineMoved":
            return RoundDeadlineMoved(
                round=d["round"], deadline=d.get("deadline"), previous=d.get("previous"), **c
            )
        case "RoundCompleted":
            return RoundCompleted(round=d.get("round", 0), **c)
        case "TournamentFinished":
            return TournamentFinished(rounds=d.get("rounds"), **c)
        case _:
            return Noted(type=type_, data=d, **c)


def event_type_of(event: TournamentEvent) -> str:
    if isinstance(event, Noted):
        return event.type
    if isinstance(event, RoundPaired) and event.repaired:
        return "RoundRepaired"
    return type(event).__name__


def _pairing_data(p: PairingEntry) -> dict[str, Any]:
    return {
        "table": p.table,
        "player1": p.player1,
        "player2": p.player2,
        "match": p.match,
        "match_version": p.match_version,
        **({"slot": p.slot} if p.slot is not None else {}),
    }


def event_to_stored(event: TournamentEvent) -> tuple[str, dict[str, Any]]:
    """(type, data) as stored, without `by` and `reason` (the repository adds those)."""
    type_ = event_type_of(event)
    match event:
        case TournamentCreated():
            data: dict[str, Any] = {
                "name": event.name,
                "club": event.club,
                "format": event.format,
                "ruleset": event.ruleset,
                "rounds": event.rounds,
                "play_mode": event.play_mode,
                "time_zone": event.time_zone,
                "language": event.language,
                "tiebreaks": list(event.tiebreaks),
                "organisers": list(event.organisers),
                "is_public": event.is_public,
                "check_in_required": event.check_in_required,
                "starts_at": event.starts_at,
                "round_starts": list(event.round_starts),
                "round_interval": event.round_interval,
                "round_duration": event.round_duration,
                "turn_time": event.turn_time,
                "dispute_window": event.dispute_window,
                "bye_points": event.bye_points,
                "bye_buchholz": event.bye_buchholz,
            }
            if event.format == "double_elimination":
                data["bracket_reset"] = event.bracket_reset
            if event.top_cut:
                data["top_cut"] = event.top_cut
                data["third_place"] = event.third_place
        case ForbiddenPairAdded() | ForbiddenPairRemoved():
            data = {"players": list(event.players)}
        case PlayerRegistered():
            data = {"player": event.player, "late": event.late}
        case PlayerCheckedIn() | PlayerCheckInUndone() | PlayerWithdrawn():
            data = {"player": event.player}
        case TournamentStarted():
            data = {"seeds": list(event.seeds), "rounds": event.rounds}
        case RoundPaired():
            data = {
                "round": event.round,
                "deadline": event.deadline,
                "pairings": [_pairing_data(p) for p in event.pairings],
            }
            if event.repaired:
                data["replaced"] = list(event.replaced)
                if event.by_hand:
                    data["by_hand"] = True
            if event.forbidden_met:
                data["forbidden_met"] = [list(p) for p in event.forbidden_met]
            if event.confirmed:
                data["confirmed"] = list(event.confirmed)
            if event.top_cut:
                data["top_cut"] = list(event.top_cut)
                data["lots"] = list(event.lots)
        case ResultRecorded():
            data = result_to_data(event.result)
        case ResultRuled():
            data = {
                "round": event.round,
                "table": event.table,
                "winner": event.winner,
                "match": event.match,
            }
        case ResultCorrected():
            data = {
                "round": event.round,
                "table": event.table,
                "before": event.before,
                "after": result_to_data(event.after) if event.after is not None else None,
                "next_round": event.next_round,
            }
            if event.repair_possible is not None:
                data["repair_possible"] = event.repair_possible
        case SettingsChanged():
            data = {"changes": event.changes}
        case RoundDeadlineMoved():
            data = {"round": event.round, "deadline": event.deadline, "previous": event.previous}
        case RoundCompleted():
            data = {"round": event.round}
        case TournamentFinished():
            data = {"rounds": event.rounds}
        case Noted():
            data = dict(event.data)
    return type_, data
