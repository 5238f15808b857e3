"""Results: a finished match's result copied into its pairing (or corrected, or withdrawn
when a correction reopens the match), and the reconciling of results whose job was lost.
load → decide (RecordResult / WithdrawResult) → save."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from core.errors import NotFoundError
from core.transactions import write_service
from games.selectors import MatchOutcome, match_outcomes
from tournaments.domain.commands import RecordResult, WithdrawResult
from tournaments.domain.events import ResultEntry
from tournaments.domain.state import TournamentState
from tournaments.models import Pairing, Round, Tournament
from tournaments.repository import tournament_load
from tournaments.services._common import require_organiser, run
from tournaments.services.rounds import round_started


def _result(table: Any, number: int, outcome: MatchOutcome) -> ResultEntry:
    """The pairing's result from its match's outcome (the pairing's player1 is the match's
    player1)."""
    return ResultEntry(
        round=number,
        table=table.table,
        player1=table.player1,
        player2=table.player2,
        winner=outcome.winner,
        games1=outcome.games_won[0],
        games2=outcome.games_won[1],
        points1=outcome.points[0],
        points2=outcome.points[1],
        match=table.match,
        result="forfeit" if outcome.finish_reason == "forfeit" else "played",
    )


def _where(state: TournamentState, match_id: str) -> tuple[int, Any] | None:
    for number, round_ in state.rounds.items():
        for table in round_.tables:
            if table.match == match_id:
                return number, table
    return None


def _pairing_of(match_id: Any) -> tuple[int, str] | None:
    ref = Pairing.objects.filter(match_id=match_id).values_list("round__tournament_id", flat=True)
    tournament_id = ref.first()
    return None if tournament_id is None else (tournament_id, str(match_id))


@write_service
def tournament_match_result_record(*, match_id: Any) -> Pairing | None:
    """Copy a finished match's result into its pairing; complete the round when it was the
    last; a different result for a finished pairing is a correction. Idempotent."""
    found = _pairing_of(match_id)
    if found is None:
        return None  # not a tournament match (or one replaced by a re-pairing)
    tournament_id, key = found
    write = tournament_load(tournament_id=tournament_id)
    where = _where(write.state, key)
    outcome = match_outcomes(match_ids=[key]).get(key)
    if where is None or outcome is None or outcome.status != "finished":
        return None
    number, table = where
    command = RecordResult(
        result=_result(table, number, outcome),
        next_round_started=round_started(write.state, number + 1),
    )
    saved = run(write, command)
    if not saved.events:
        return None
    return Pairing.objects.select_related("round").get(match_id=key)


@write_service
def tournament_match_result_withdraw(*, match_id: Any) -> Pairing | None:
    """A correction put a finished match back in play: its pairing's result no longer
    stands (ResultCorrected with no result after); the pairing waits for the match again.
    Idempotent."""
    found = _pairing_of(match_id)
    if found is None:
        return None
    tournament_id, key = found
    write = tournament_load(tournament_id=tournament_id)
    where = _where(write.state, key)
    outcome = match_outcomes(match_ids=[key]).get(key)
    if where is None or outcome is None or outcome.status == "finished":
        return None
    number, table = where
    command = WithdrawResult(
        round=number,
        table=table.table,
        next_round_started=round_started(write.state, number + 1),
    )
    if not run(write, command).events:
        return None
    return Pairing.objects.select_related("round").get(match_id=key)


def tournament_results_reconcile(*, tournament_id: int | None = None) -> list[int]:
    """Record the result of every pairing still waiting although its match has finished:
    the `match_finished` job was lost (a worker killed mid-job, the broker down at commit).
    Beat runs it every minute; an organiser can run it for one tournament ("take the
    results from the matches"). Idempotent. Returns the pairing ids recorded."""
    pending = Pairing.objects.filter(
        status=Pairing.Status.PENDING, match__isnull=False, round__status=Round.Status.PAIRED
    )
    if tournament_id is not None:
        pending = pending.filter(round__tournament_id=tournament_id)
    match_ids = list(pending.values_list("match_id", flat=True))
    finished = [
        o.match_id for o in match_outcomes(match_ids=match_ids).values() if o.status == "finished"
    ]
    recorded = []
    for match_id in finished:
        pairing = tournament_match_result_record(match_id=match_id)
        if pairing is not None:
            recorded.append(pairing.pk)
    return recorded


def tournament_results_take(*, tournament_id: int, by: AbstractBaseUser) -> list[int]:
    """An organiser's way out of a stuck round: take every finished match's result now."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFoundError("no such tournament")
    require_organiser(by, tournament)
    return tournament_results_reconcile(tournament_id=tournament_id)
