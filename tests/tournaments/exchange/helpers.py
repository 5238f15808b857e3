"""A random finished team event made by the pure domain (random lineups and results), and
its exchange file: what the checker's property test and the round trip feed on."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

from tournaments.exchange.build import exchange_of
from tournaments.exchange.hgx import write
from tournaments.teams.domain import decide, fold
from tournaments.teams.domain.commands import (
    CreateTeamEvent,
    PairTeamRound,
    RecordBoard,
    RegisterTeam,
    SetLineup,
)
from tournaments.teams.domain.events import BoardResult
from tournaments.teams.domain.pairing import boards_needed
from tournaments.teams.domain.state import TeamEventState

TOOL = Path(__file__).resolve().parents[3] / "tools" / "check_exchange.py"
_spec = importlib.util.spec_from_file_location("check_exchange", TOOL)
assert _spec and _spec.loader
checker = importlib.util.module_from_spec(_spec)  # the stand-alone tool, loaded as a module
_spec.loader.exec_module(checker)


def _run(state: TeamEventState, command: object) -> TeamEventState:
    return fold(decide(state, command), state)  # type: ignore[arg-type]


def random_team_event(
    seed: int, *, teams: int, boards: int, fmt: str, rounds: int | None = None
) -> TeamEventState:
    rng = random.Random(seed)
    state = _run(TeamEventState(), CreateTeamEvent(format=fmt, name="Random", club=None,
                                                   boards=boards, rounds=rounds))  # fmt: skip
    for t in range(1, teams + 1):
        roster = tuple(1000 * t + i for i in range(boards + rng.randint(0, 2)))
        state = _run(state, RegisterTeam(name=f"Side {t}", club=None, captain=None, roster=roster))
    n = 0
    while not state.finished:
        n += 1
        for t, team in state.teams.items():
            if rng.random() < 0.3:
                lineup = tuple(rng.sample(team.roster, boards))
                state = _run(state, SetLineup(team=t, round=n, players=lineup))
        ids = tuple(f"{seed}-{n}-{i}" for i in range(boards_needed(state)))
        state = _run(state, PairTeamRound(number=n, match_ids=ids))
        for p in state.rounds[n].pairings:
            for b in p.boards:
                winner = rng.choice((b.player1, b.player2, b.player1, b.player2, None))
                forfeit = winner is not None and rng.random() < 0.1
                result = BoardResult(
                    n, p.table, b.board, winner, rng.randint(0, 3), rng.randint(0, 3),
                    rng.randint(0, 400), rng.randint(0, 400), "forfeit" if forfeit else "played",
                )  # fmt: skip
                state = _run(state, RecordBoard(result))
    return state


def exchange_text(state: TeamEventState, *, feds: bool = True) -> str:
    """The file, players named "Player <id>", odd ids with a federation id "F<id>"."""
    names = {p: f"Player {p}" for t in state.teams.values() for p in t.roster}
    ids = {p: f"F{p}" for p in names if p % 2} if feds else {}
    return write(exchange_of(state, name="Random event", names=names, feds=ids))
