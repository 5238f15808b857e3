"""A random finished bracket (a knockout, a double elimination, a Swiss with a top cut) made
by the pure domain (random seeds, results, withdrawals, pairs kept apart), and its HGX 3
file: what the checker's property test and the round trip feed on."""

from __future__ import annotations

import random

from tests.tournaments.exchange.individual_helpers import NOW, TIEBREAK_ORDERS, entered, run
from tournaments.domain.commands import (
    ForbidPair,
    PairRound,
    RecordResult,
    Withdraw,
)
from tournaments.domain.events import ResultEntry, TournamentCreated
from tournaments.domain.state import TournamentState
from tournaments.exchange.individual import exchange_of_tournament, write_individual

BRACKETS = ("knockout", "double_elimination", "top_cut")


def random_bracket(  # noqa: PLR0913
    seed: int,
    *,
    players: int,
    kind: str,
    reset: bool = True,
    third_place: bool = False,
    withdrawals: bool = True,
    forbidden: int = 0,
    tiebreaks: int = 0,
) -> TournamentState:
    """`kind`: knockout, double_elimination or top_cut (a Swiss of 3 rounds, then the top
    4, or 8 with at least 8 players)."""
    rng = random.Random(seed)
    counter = [0]
    cut = (8 if players >= 8 and rng.random() < 0.5 else 4) if kind == "top_cut" else None
    created = TournamentCreated(
        format="swiss" if cut else kind, name="Bracket", rounds=3 if cut else None,
        tiebreaks=TIEBREAK_ORDERS[tiebreaks], bracket_reset=reset, top_cut=cut,
        third_place=third_place and cut is not None,
    )  # fmt: skip
    state, ids = entered(created, players, rng, counter)
    # Pairs kept apart: a bracket's (a Swiss's are not in the file).
    for _ in range(forbidden if cut is None else 0):
        state = run(state, ForbidPair(players=tuple(rng.sample(ids, 2))), counter)
    n = 0
    while not state.finished:
        n += 1
        state = run(state, PairRound(number=n, now=NOW, ratings={p: p for p in ids}), counter)
        if state.finished:
            break
        for t in state.rounds[n].tables:
            if t.player2 is None or t.status == "finished":
                continue
            winner = rng.choice((t.player1, t.player2))
            entry = ResultEntry(
                n, t.table, t.player1, t.player2, winner, rng.randint(0, 3), rng.randint(0, 3),
                rng.randint(0, 400), rng.randint(0, 400), t.match,
                "forfeit" if rng.random() < 0.1 else "played",
            )  # fmt: skip
            state = run(state, RecordResult(result=entry), counter)
        active = [p for p in ids if p not in state.withdrawn]
        if withdrawals and not state.finished and rng.random() < 0.15 and len(active) > 3:
            state = run(state, Withdraw(player=rng.choice(active)), counter)
    return state


def bracket_text(state: TournamentState) -> str:
    """The file, players named "Player <id>", no federation ids."""
    names = {p: f"Player {p}" for p in state.paired}
    return write_individual(exchange_of_tournament(state, name="Bracket", names=names, feds={}))
