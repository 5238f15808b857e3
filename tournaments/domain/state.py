"""A tournament's state folded from its events (`evolve`), its standings (`standings_of`:
the one standings fold), and the decisions that need nothing but the state."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from tournaments.domain.events import (
    PlayerWithdrawn,
    ResultCorrected,
    ResultEntry,
    ResultRecorded,
    RoundPaired,
    SettingsChanged,
    TournamentCreated,
    TournamentEvent,
    TournamentFinished,
    TournamentStarted,
)
from tournaments.pairing.standings import TIEBREAKS, Result, Standing, standings

# What an organiser may change, and what is fixed once the tournament has started (the
# pairings and matches already made were made under it).
SETTINGS_MUTABLE = (
    "name",
    "is_public",
    "starts_at",
    "round_interval",
    "round_duration",
    "turn_time",
    "dispute_window",
    "rounds_planned",
    "tiebreaks",
    "time_zone",
)
SETTINGS_FIXED_AFTER_START = ("ruleset", "format", "play_mode", "check_in_required")


class SettingFixedError(Exception):
    """A setting that may no longer change (the tournament has started)."""

    def __init__(self, name: str) -> None:
        super().__init__(
            f"the {name.replace('_', ' ')} cannot change once the tournament has started"
        )
        self.name = name


@dataclass(frozen=True)
class TournamentState:
    format: str = ""
    tiebreaks: tuple[str, ...] = ()  # as set; () = the format's default order
    started: bool = False
    finished: bool = False
    paired: frozenset[int] = frozenset()  # everyone ever paired (a bye counts)
    withdrawn: frozenset[int] = frozenset()
    # (round, table) -> the result standing for that pairing now
    results: dict[tuple[int, int], ResultEntry] = field(default_factory=dict)
    rounds_paired: int = 0


def evolve(state: TournamentState, event: TournamentEvent) -> TournamentState:
    """The state after `event`: total over event types, no checks."""
    match event:
        case TournamentCreated():
            return replace(state, format=event.format, tiebreaks=event.tiebreaks)
        case TournamentStarted():
            return replace(state, started=True)
        case RoundPaired():
            results = state.results
            if event.repaired:
                results = {k: r for k, r in results.items() if k[0] != event.round}
            paired = set(state.paired)
            for p in event.pairings:
                paired.add(p.player1)
                if p.player2 is not None:
                    paired.add(p.player2)
            return replace(
                state,
                started=True,
                results=results,
                paired=frozenset(paired),
                rounds_paired=max(state.rounds_paired, event.round),
            )
        case ResultRecorded():
            key = (event.result.round, event.result.table)
            return replace(state, results={**state.results, key: event.result})
        case ResultCorrected():
            results = dict(state.results)
            if event.after is None:
                results.pop((event.round, event.table), None)
            else:
                results[(event.round, event.table)] = event.after
            return replace(state, results=results)
        case PlayerWithdrawn():
            return replace(state, withdrawn=state.withdrawn | {event.player})
        case SettingsChanged():
            tiebreaks = event.changes.get("tiebreaks")
            if tiebreaks is None:
                return state
            return replace(state, tiebreaks=tuple(tiebreaks["new"] or ()))
        case TournamentFinished():
            return replace(state, finished=True)
        case _:
            return state


def fold(
    events: Iterable[TournamentEvent], state: TournamentState | None = None
) -> TournamentState:
    current = state if state is not None else TournamentState()
    for event in events:
        current = evolve(current, event)
    return current


def tiebreak_order(state: TournamentState) -> list[str]:
    """The tournament's setting, or: match wins, games, points (+ Buchholz, SB for Swiss)."""
    if state.tiebreaks:
        return list(state.tiebreaks)
    return list(TIEBREAKS) if state.format == "swiss" else list(TIEBREAKS[:3])


def results_of(state: TournamentState) -> list[Result]:
    return [
        Result(
            round=r.round,
            player1=r.player1,
            player2=r.player2,
            winner=r.winner,
            games1=r.games1,
            games2=r.games2,
            points1=r.points1,
            points2=r.points2,
        )
        for _, r in sorted(state.results.items())
    ]


def standings_of(
    state: TournamentState, *, also: Sequence[int] = (), tiebreaks: Sequence[str] | None = None
) -> list[Standing]:
    """The standings: everyone paired so far (and `also`, e.g. the players about to be
    paired), by the tournament's tiebreak order (or `tiebreaks`)."""
    order = tiebreak_order(state) if tiebreaks is None else list(tiebreaks)
    players = sorted(set(state.paired) | set(also))
    return standings(players=players, results=results_of(state), tiebreaks=order)


def decide_settings_change(
    state: TournamentState, *, current: dict[str, Any], wanted: dict[str, Any]
) -> dict[str, dict[str, Any]]:
    """The settings that change ({name: {"old", "new"}}, values as given), refusing
    (SettingFixedError) what may no longer change once the tournament has started."""
    changed = {}
    for name, value in wanted.items():
        if value == current[name]:
            continue
        if name in SETTINGS_FIXED_AFTER_START and state.started:
            raise SettingFixedError(name)
        changed[name] = {"old": current[name], "new": value}
    return changed
