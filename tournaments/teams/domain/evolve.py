"""`evolve(state, event) -> state` for a team event: total over its event types, no checks."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from tournaments.teams.domain.events import (
    BoardResultCorrected,
    BoardResultRecorded,
    LineupSet,
    TeamEvent,
    TeamEventCreated,
    TeamEventFinished,
    TeamPairForbidden,
    TeamRegistered,
    TeamRoundCompleted,
    TeamRoundPaired,
)
from tournaments.teams.domain.state import (
    COMPLETED,
    FINISHED,
    IN_PROGRESS,
    Team,
    TeamEventState,
    TeamRound,
)


def evolve(state: TeamEventState, event: TeamEvent) -> TeamEventState:
    state = replace(state, version=state.version + 1)
    match event:
        case TeamEventCreated():
            return replace(
                state,
                created=True,
                format=event.format,
                boards=event.boards,
                rounds_planned=event.rounds,
                match_points=tuple(event.match_points),  # type: ignore[arg-type]
                play_mode=event.play_mode,
                is_public=event.is_public,
                ruleset=dict(event.ruleset),
                tournament=event.tournament,
            )
        case TeamRegistered():
            team = Team(event.team, event.name, event.club, event.captain, event.roster)
            return replace(state, teams={**state.teams, event.team: team})
        case LineupSet():
            key = (event.team, event.round)
            return replace(state, lineups={**state.lineups, key: event.players})
        case TeamPairForbidden():
            return replace(state, forbidden=state.forbidden | {event.teams})
        case TeamRoundPaired():
            teams = state.teams
            if event.seeds:
                teams = {
                    n: replace(t, seed=event.seeds.index(n) + 1) if n in event.seeds else t
                    for n, t in teams.items()
                }
            return replace(
                state,
                status=IN_PROGRESS,
                teams=teams,
                rounds_planned=event.rounds if event.rounds is not None else state.rounds_planned,
                current_round=max(state.current_round, event.round),
                rounds={**state.rounds, event.round: TeamRound(event.round, event.pairings)},
            )
        case BoardResultRecorded() | BoardResultCorrected():
            r = event.result
            round_ = state.rounds.get(r.round)
            if round_ is None:
                return state
            results = {**round_.results, (r.table, r.board): r}
            return replace(
                state, rounds={**state.rounds, r.round: replace(round_, results=results)}
            )
        case TeamRoundCompleted():
            round_ = state.rounds.get(event.round)
            if round_ is None:
                return state
            done = replace(round_, status=COMPLETED)
            return replace(state, rounds={**state.rounds, event.round: done})
        case TeamEventFinished():
            return replace(state, status=FINISHED)
    return state


def fold(events: Iterable[TeamEvent], state: TeamEventState | None = None) -> TeamEventState:
    current = state if state is not None else TeamEventState()
    for event in events:
        current = evolve(current, event)
    return current
