"""A random finished individual tournament made by the pure domain (random fields, results,
withdrawals), and its HGX 2 file: what the checker's property test and the round trip feed
on."""

from __future__ import annotations

import datetime as dt
import random

from tests.tournaments.domain.helpers import with_match_ids
from tournaments.domain import decide, fold
from tournaments.domain.commands import CheckIn, PairRound, RecordResult, Register, Withdraw
from tournaments.domain.events import ResultEntry, TournamentCreated
from tournaments.domain.state import TournamentState
from tournaments.exchange.individual import exchange_of_tournament, write_individual

NOW = dt.datetime(2026, 12, 1, 19, 30, tzinfo=dt.UTC)
TIEBREAK_ORDERS = (
    (),
    ("match_wins", "games_won", "points_diff"),
    ("match_wins", "buchholz", "sonneborn_berger", "median_buchholz", "head_to_head"),
)


def run(state: TournamentState, command: object, counter: list[int]) -> TournamentState:
    """The pure domain's answer to `command`, folded in (match ids numbered by `counter`)."""
    return fold(with_match_ids(decide(state, command), counter), state)  # type: ignore[arg-type]


def entered(
    created: TournamentCreated, players: int, rng: random.Random, counter: list[int]
) -> tuple[TournamentState, list[int]]:
    """A tournament just created with `players` random player ids registered and checked in."""
    state = fold([created], TournamentState())
    ids = rng.sample(range(100, 999), players)
    for p in ids:
        state = run(state, Register(player=p), counter)
        state = run(state, CheckIn(player=p), counter)
    return state, ids


def random_tournament(  # noqa: PLR0913
    seed: int,
    *,
    players: int,
    fmt: str,
    rounds: int = 4,
    tiebreaks: int = 0,
    bye_points: str = "win",
    bye_buchholz: str = "nothing",
) -> TournamentState:
    rng = random.Random(seed)
    counter = [0]
    created = TournamentCreated(
        format=fmt, name="Random", rounds=rounds if fmt == "swiss" else None,
        tiebreaks=TIEBREAK_ORDERS[tiebreaks], bye_points=bye_points, bye_buchholz=bye_buchholz,
    )  # fmt: skip
    state, ids = entered(created, players, rng, counter)
    n = 0
    while not state.finished:
        n += 1
        state = run(state, PairRound(number=n, now=NOW), counter)
        if state.finished:
            break
        for t in state.rounds[n].tables:
            if t.player2 is None:
                continue
            winner = rng.choice((t.player1, t.player2, t.player1, t.player2, None))
            forfeit = winner is not None and rng.random() < 0.1
            entry = ResultEntry(
                n, t.table, t.player1, t.player2, winner, rng.randint(0, 3), rng.randint(0, 3),
                rng.randint(0, 400), rng.randint(0, 400), t.match,
                "forfeit" if forfeit else "played",
            )  # fmt: skip
            state = run(state, RecordResult(result=entry), counter)
        if fmt == "swiss" and not state.finished and rng.random() < 0.2 and len(ids) > 3:
            state = run(state, Withdraw(player=rng.choice(ids)), counter)
    return state


def individual_text(state: TournamentState, *, feds: bool = True) -> str:
    """The file, players named "Player <id>", odd ids with a federation id "F<id>"."""
    names = {p: f"Player {p}" for p in state.paired}
    ids = {p: f"F{p}" for p in names if p % 2} if feds else {}
    return write_individual(exchange_of_tournament(state, name="Random", names=names, feds=ids))
