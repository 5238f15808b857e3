"""Which matches of a finished tournament are rated, and what re-rates a club: derived from
the tournament's stored events (and the games' facts about each match). Pure Python.

A finished tournament of a club is one rating period, placed by the position of its
(first) `TournamentFinished` event in the store's global order. A match is rated when at
least one hand ended in it (played or recorded) and it ended on the games, by resignation
or by forfeit after play (the turn clock, a round deadline, an organiser's ruling during
play); byes, cancelled matches and no-shows (forfeited before any hand) are not. Practice
and friendly matches are no tournament's, so no period's.

A result that changes after the tournament finished (a correction, a void, a ruling: the
tournament records it as `ResultCorrected`) re-rates the period and every later one of the
club that had finished by then; so does a change of the club's rating settings, from the
club's first period. Each such cause is listed on every period it re-rated.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from tournaments.domain.glicko2 import PeriodGame

RATED_FINISHES = frozenset({"games", "resigned", "forfeit"})


class StoredEvent(Protocol):
    type: str
    data: dict[str, Any]
    position: int
    recorded_at: Any


class MatchFacts(Protocol):
    finish_reason: str
    hands_ended: int


@dataclass(frozen=True)
class PairingResult:
    round: int
    table: int
    player1: int
    player2: int | None
    winner: int | None
    match: str | None


@dataclass(frozen=True)
class RerateCause:
    position: int  # the global position of the event that caused it
    at: Any  # when (the event's recorded_at)
    reason: str


@dataclass(frozen=True)
class TournamentPeriod:
    """A tournament as a rating period: where it finished in the global order (None: not
    finished), its results as they stand, and the causes that re-rated it since."""

    finished_position: int | None
    finished_at: Any
    results: tuple[PairingResult, ...]
    causes: tuple[RerateCause, ...]


def _result(d: Mapping[str, Any]) -> PairingResult:
    match = d.get("match")
    return PairingResult(
        round=d["round"],
        table=d["table"],
        player1=d["player1"],
        player2=d.get("player2"),
        winner=d.get("winner"),
        match=str(match) if match else None,
    )


def _cause_reason(kind: str, key: tuple[int, int]) -> str:
    return f"{kind}: round {key[0]}, table {key[1]}"


def tournament_period(events: Iterable[StoredEvent]) -> TournamentPeriod:
    """Fold the tournament's events (its whole stream, or at least its pairing, result and
    finish events) into its period."""
    results: dict[tuple[int, int], PairingResult] = {}
    finished: StoredEvent | None = None
    causes: list[RerateCause] = []
    for event in events:
        d = event.data
        changed: list[tuple[str, tuple[int, int]]] = []
        match event.type:
            case "RoundRepaired":
                for key in [k for k in results if k[0] == d["round"]]:
                    del results[key]
                    changed.append(("round re-paired", key))
            case "ResultRecorded":
                new = _result(d)
                key = (new.round, new.table)
                old = results.get(key)
                results[key] = new
                if old is None or old.winner != new.winner:
                    changed.append(("result recorded", key))
            case "ResultCorrected":
                key = (d["round"], d["table"])
                old = results.pop(key, None)
                after = d.get("after")
                if after is not None:
                    results[key] = _result(after)
                if after is None:
                    changed.append(("result withdrawn", key))
                elif old is None or old.winner != results[key].winner:
                    changed.append(("result corrected", key))
            case "TournamentFinished":
                if finished is None:
                    finished = event
        if finished is not None and finished is not event:
            causes += [
                RerateCause(event.position, event.recorded_at, _cause_reason(kind, key))
                for kind, key in changed
            ]
    return TournamentPeriod(
        finished_position=finished.position if finished is not None else None,
        finished_at=finished.recorded_at if finished is not None else None,
        results=tuple(sorted(results.values(), key=lambda r: (r.round, r.table))),
        causes=tuple(causes),
    )


def match_is_rated(result: PairingResult, facts: MatchFacts | None) -> bool:
    """A rated match: two players, a winner among them, at least one hand ended, and an
    end on the games, by resignation or by forfeit after play."""
    if result.player2 is None or result.match is None or facts is None:
        return False
    if result.winner not in (result.player1, result.player2):
        return False
    return facts.finish_reason in RATED_FINISHES and facts.hands_ended >= 1


def rated_games(period: TournamentPeriod, facts: Mapping[str, MatchFacts]) -> list[PeriodGame]:
    """The period's rated matches as (winner, loser), in round and table order."""
    games = []
    for result in period.results:
        if match_is_rated(result, facts.get(result.match or "")):
            assert result.player2 is not None and result.winner is not None
            loser = result.player2 if result.winner == result.player1 else result.player1
            games.append(PeriodGame(winner=result.winner, loser=loser))
    return games


def rerated_by(
    finished_positions: Sequence[int],
    causes: Sequence[Sequence[RerateCause]],
    settings_changes: Sequence[RerateCause],
) -> list[list[RerateCause]]:
    """For each period (in the club's order, `finished_positions` ascending), the causes
    that re-rated it: a cause of period i re-rates period i and every later one that had
    finished before it; a settings change re-rates every period finished before it. In
    the order they happened."""
    out: list[list[RerateCause]] = [[] for _ in finished_positions]
    for i, own in enumerate(causes):
        for cause in own:
            for j in range(i, len(finished_positions)):
                if finished_positions[j] < cause.position:
                    out[j].append(cause)
    for cause in settings_changes:
        for j, position in enumerate(finished_positions):
            if position < cause.position:
                out[j].append(cause)
    for entry in out:
        entry.sort(key=lambda c: c.position)
    return out
