"""A TeamEventState as JSON and back, for the repository's snapshots. Bump STATE_SCHEMA when
the state's shape changes: older snapshots are then ignored and the events replayed.

Keys that are not strings in the state (teams by number, lineups by (team, round), results
by (table, board)) are stored as lists; each key is rebuilt from the values it names."""

from __future__ import annotations

from typing import Any

from tournaments.teams.domain.events import BoardResult
from tournaments.teams.domain.state import Team, TeamEventState, TeamRound
from tournaments.teams.domain.stored import as_json, pairing_from_json

STATE_SCHEMA = 2


def state_to_dict(state: TeamEventState) -> dict[str, Any]:
    return {
        "version": state.version,
        "created": state.created,
        "format": state.format,
        "boards": state.boards,
        "rounds_planned": state.rounds_planned,
        "match_points": list(state.match_points),
        "play_mode": state.play_mode,
        "is_public": state.is_public,
        "tournament": state.tournament,
        "ruleset": as_json(state.ruleset),
        "status": state.status,
        "current_round": state.current_round,
        "teams": [as_json(t) for t in state.teams.values()],
        "lineups": [
            [team, round_, list(players)] for (team, round_), players in state.lineups.items()
        ],
        "forbidden": sorted([a, b] for a, b in state.forbidden),
        "rounds": [
            {
                "number": r.number,
                "status": r.status,
                "pairings": as_json(r.pairings),
                "results": [as_json(result) for result in r.results.values()],
            }
            for r in state.rounds.values()
        ],
    }


def _team(data: dict[str, Any]) -> Team:
    return Team(**{**data, "roster": tuple(data["roster"])})


def _round(data: dict[str, Any]) -> TeamRound:
    results = [BoardResult(**r) for r in data["results"]]
    return TeamRound(
        number=data["number"],
        status=data["status"],
        pairings=tuple(pairing_from_json(p) for p in data["pairings"]),
        results={(r.table, r.board): r for r in results},
    )


def state_from_dict(data: dict[str, Any]) -> TeamEventState:
    win, draw, loss = data["match_points"]
    return TeamEventState(
        version=data["version"],
        created=data["created"],
        format=data["format"],
        boards=data["boards"],
        rounds_planned=data["rounds_planned"],
        match_points=(win, draw, loss),
        play_mode=data["play_mode"],
        is_public=data["is_public"],
        tournament=data["tournament"],
        ruleset=dict(data["ruleset"]),
        status=data["status"],
        current_round=data["current_round"],
        teams={t["number"]: _team(t) for t in data["teams"]},
        lineups={(team, round_): tuple(players) for team, round_, players in data["lineups"]},
        forbidden=frozenset((a, b) for a, b in data["forbidden"]),
        rounds={r["number"]: _round(r) for r in data["rounds"]},
    )
