"""Commands on rounds: pairing (by the scheduler or by hand), re-pairing, recording results
and completing rounds. Re-exported by tournaments.services.

Exactly-once pairing: the service locks the tournament row and does nothing if the round
already exists; the unique constraint (tournament, number) backs the lock up, so a job
delivered twice, or run by two workers at once, pairs the round once.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from core.errors import (
    ConflictError,
    NotFoundError,
    PermissionDeniedError,
    ValidationError,
    VersionConflictError,
)
from core.transactions import service_transaction
from games.selectors import MatchOutcome, match_get, match_outcomes, user_can_organise_match
from games.services import match_create_in_tx, match_rule_in_tx
from players.models import Player
from tournaments import jobs, stream
from tournaments.models import Pairing, Registration, Round, Tournament
from tournaments.pairing import Pair
from tournaments.projections import standings_refresh
from tournaments.scheduling import active_registrations, pairs_for_round, round_count, round_start
from tournaments.selectors import tournament_lock, user_can_organise
from tournaments.stream import system_user

log = logging.getLogger(__name__)

_FORMAT_LABEL = {"round_robin": "RR", "swiss": "Swiss", "knockout": "KO"}


_ORGANISERS_ONLY = "only the tournament's organisers may do this"


def _require_organiser(user: AbstractBaseUser | None, tournament: Tournament) -> None:
    if user is not None and not user_can_organise(user=user, tournament=tournament):
        raise PermissionDeniedError(_ORGANISERS_ONLY)


def paired_round_lock(
    *, tournament_id: int, round_number: int, by: AbstractBaseUser, conflict: str
) -> tuple[Tournament, Round]:
    """Lock the tournament, check `by` organises it and return it with its round
    `round_number`, which must be in play (paired); otherwise a ConflictError (code
    `conflict`, reason round_not_in_play) with the caller's message. The caller holds a
    transaction."""
    tournament = tournament_lock(tournament_id=tournament_id)
    if not user_can_organise(user=by, tournament=tournament):  # None too: no scheduler here
        raise PermissionDeniedError(_ORGANISERS_ONLY)
    round_ = tournament.rounds.filter(number=round_number).first()
    if round_ is None or round_.status != Round.Status.PAIRED:
        raise ConflictError(conflict, extra={"reason": "round_not_in_play"})
    return tournament, round_


def _seed(tournament: Tournament) -> list[int]:
    """Fix the seeds when round 1 is paired: rating, then order of registration."""
    regs = active_registrations(tournament=tournament)
    for i, reg in enumerate(regs, start=1):
        reg.seed = i
    Registration.objects.bulk_update(regs, ["seed"])
    return [r.player_id for r in regs]


def tournament_round_pair(
    *,
    tournament_id: int,
    round_number: int,
    by: AbstractBaseUser | None = None,
    reason: str = "",
) -> Round | None:
    """Pair round `round_number` and create its matches. Returns None, writing nothing, when
    the round is already paired (a repeated job) or, for the scheduler (`by` None), when its
    start time has not come. An organiser (`by`) may pair a round early."""
    with service_transaction():
        try:
            with transaction.atomic():  # a savepoint: a lost race leaves the rest usable
                return _round_pair(tournament_id, round_number, by, reason)
        except IntegrityError:
            # Another transaction paired it between our guard and our insert (no row lock
            # on SQLite): the unique constraint stopped us, which is the outcome we want.
            if Round.objects.filter(tournament_id=tournament_id, number=round_number).exists():
                return None
            raise


def _round_pair(
    tournament_id: int, number: int, by: AbstractBaseUser | None, reason: str
) -> Round | None:
    tournament = tournament_lock(tournament_id=tournament_id)
    _require_organiser(by, tournament)
    if Round.objects.filter(tournament=tournament, number=number).exists():
        return None
    if tournament.status == Tournament.Status.FINISHED or number <= tournament.current_round:
        return None
    if number != tournament.current_round + 1:
        raise ConflictError(
            f"the next round is {tournament.current_round + 1}",
            extra={"reason": "round_not_next"},
        )
    previous = tournament.rounds.filter(number=number - 1).first()
    if previous is not None and previous.status != Round.Status.COMPLETED:
        raise ConflictError(f"round {number - 1} is still in play", code="round_in_play")
    now = timezone.now()
    scheduled = round_start(tournament=tournament, number=number)
    if by is None and (scheduled is None and number == 1 or scheduled and scheduled > now):
        return None  # the scheduler waits for the start time (round 1: for the organiser)
    events: list[tuple[str, dict[str, Any]]] = []
    if number == 1:
        seeded = _seed(tournament)
        if len(seeded) < 2:
            raise ConflictError("at least two players must be checked in", code="too_few")
        tournament.rounds_planned = round_count(tournament=tournament, players=len(seeded))
        tournament.status = Tournament.Status.IN_PROGRESS
        events.append(
            (stream.TOURNAMENT_STARTED, {"seeds": seeded, "rounds": tournament.rounds_planned})
        )
    else:
        seeded = [r.player_id for r in active_registrations(tournament=tournament)]
    if tournament.rounds_planned and number > tournament.rounds_planned:
        return None
    pairs = pairs_for_round(tournament=tournament, number=number, seeded=seeded)
    if not pairs:
        raise ConflictError("nobody is left to pair", code="too_few")
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        scheduled_at=scheduled,
        paired_at=now,
        deadline=(
            now + tournament.round_duration if tournament.round_duration is not None else None
        ),
        paired_by=by,
    )
    tournament.current_round = number
    tournament.save(update_fields=["rounds_planned", "status", "current_round"])
    pairings = _pairings_create(tournament=tournament, round_=round_, pairs=pairs, by=by)
    events.append((stream.ROUND_PAIRED, _round_data(round_, pairings)))
    events += [(stream.RESULT_RECORDED, _result_data(p)) for p in pairings if p.player2 is None]
    if all(p.player2 is None for p in pairings):
        # Withdrawals left nobody to play (e.g. a knockout final with one finalist): the
        # round is over as soon as it is paired.
        events += _round_complete(tournament, round_)
    stream.stream_append(tournament=tournament, events=events, by=by, reason=reason)
    standings_refresh(tournament=tournament)
    return round_


def _round_data(round_: Round, pairings: Sequence[Pairing]) -> dict[str, Any]:
    return {
        "round": round_.number,
        "deadline": round_.deadline.isoformat() if round_.deadline else None,
        "pairings": [
            {
                "table": p.table,
                "player1": p.player1_id,
                "player2": p.player2_id,
                "match": str(p.match_id) if p.match_id else None,
            }
            for p in pairings
        ],
    }


def _pairings_create(
    *,
    tournament: Tournament,
    round_: Round,
    pairs: Sequence[Pair],
    by: AbstractBaseUser | None,
) -> list[Pairing]:
    """One pairing per pair; a match for each real pair, a recorded win for each bye."""
    players = Player.objects.in_bulk([p for pair in pairs for p in (pair.first, pair.second) if p])
    organisers = [*tournament.organisers.all(), system_user()]
    if tournament.club is not None:
        organisers += list(tournament.club.organisers.all())
    label = _FORMAT_LABEL[tournament.format]
    created = []
    # Byes last, so tables 1..k are the real matches; a knockout keeps its bracket order,
    # which the next round's pairing reads back from the tables.
    ordered = list(pairs)
    if tournament.format != Tournament.Format.KNOCKOUT:
        ordered.sort(key=lambda pair: pair.second is None)
    for table, pair in enumerate(ordered, start=1):
        pairing = Pairing(round=round_, table=table, player1=players[pair.first])
        if pair.second is None:
            pairing.status, pairing.winner_id = Pairing.Status.FINISHED, pair.first
            pairing.result_reason = "bye"
        else:
            pairing.player2 = players[pair.second]
            pairing.match = match_create_in_tx(
                player1=players[pair.first],
                player2=players[pair.second],
                ruleset=tournament.ruleset,
                first_dealer=players[pair.first],
                mode=tournament.play_mode,
                organisers=organisers,
                created_by=by,
                label=f"{label} R{round_.number} T{table}",
            )
            pairing.match_version_at_pairing = pairing.match.version
        pairing.save()
        created.append(pairing)
    return created


def _result_data(p: Pairing) -> dict[str, Any]:
    return {
        "round": p.round.number,
        "table": p.table,
        "player1": p.player1_id,
        "player2": p.player2_id,
        "winner": p.winner_id,
        "games1": p.games1,
        "games2": p.games2,
        "points1": p.points1,
        "points2": p.points2,
        "match": str(p.match_id) if p.match_id else None,
        "result": p.result_reason,
    }


def tournament_round_start_next(
    *, tournament_id: int, by: AbstractBaseUser, reason: str = ""
) -> Round:
    """Pair and start the round after the current one now (round 1 starts the
    tournament); a round that cannot be paired now (already paired, previous round in
    play) is 409 `conflict`, reason round_not_startable."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFoundError("no such tournament")
    number = tournament.current_round + 1
    round_ = tournament_round_pair(
        tournament_id=tournament_id, round_number=number, by=by, reason=reason
    )
    if round_ is None:
        raise ConflictError(
            f"round {number} cannot be started", extra={"reason": "round_not_startable"}
        )
    return round_


def tournament_start(*, tournament_id: int, by: AbstractBaseUser, reason: str = "") -> Round | None:
    """Start the tournament now: pair round 1 (by hand, before any scheduled time)."""
    return tournament_round_pair(tournament_id=tournament_id, round_number=1, by=by, reason=reason)


def _match_started(pairing: Pairing) -> bool:
    if pairing.match_id is None:
        return False
    match = match_get(match_id=pairing.match_id)
    return match.status == "finished" or match.version > pairing.match_version_at_pairing


def tournament_round_repair(
    *,
    tournament_id: int,
    round_number: int,
    by: AbstractBaseUser,
    reason: str,
    pairs: Sequence[tuple[int, int | None]] | None = None,
    expected_version: int | None = None,
) -> Round:
    """Replace a round's pairings, computed afresh or the organiser's own `pairs` (player
    ids; None = bye). Only while none of its matches has started. The old matches are
    cancelled (a MatchCancelled event in their streams, in the same transaction), so that
    nobody can play them and their players see them as finished, with no winner.

    `expected_version`: the tournament's version the organiser saw; a stale one (another
    re-pairing, a result, a double click) is refused with 409 version_conflict."""
    if not reason.strip():
        raise ValidationError("a re-pairing needs a reason", code="reason_required")
    with service_transaction():
        tournament, round_ = paired_round_lock(
            tournament_id=tournament_id,
            round_number=round_number,
            by=by,
            conflict="only a round in play can be re-paired",
        )
        if expected_version is not None and expected_version != tournament.version:
            raise VersionConflictError(
                f"the tournament is at version {tournament.version}, not {expected_version}",
                extra={"current_version": tournament.version},
            )
        old = list(round_.pairings.select_related("round"))
        if any(_match_started(p) for p in old):
            raise ConflictError("a match of this round has started", code="round_started")
        seeded = [r.player_id for r in active_registrations(tournament=tournament)]
        # Manual pairs are checked before anything is cancelled or deleted.
        new_pairs = None if pairs is None else _validate_manual_pairs(pairs, seeded)
        _matches_cancel(old, by=by, reason=f"round {round_number} re-paired: {reason.strip()}")
        round_.pairings.all().delete()
        if new_pairs is None:
            new_pairs = pairs_for_round(tournament=tournament, number=round_number, seeded=seeded)
        pairings = _pairings_create(tournament=tournament, round_=round_, pairs=new_pairs, by=by)
        data = {**_round_data(round_, pairings), "replaced": [str(p.match_id) for p in old]}
        events = [(stream.ROUND_REPAIRED, data)]
        events += [(stream.RESULT_RECORDED, _result_data(p)) for p in pairings if not p.player2]
        stream.stream_append(tournament=tournament, events=events, by=by, reason=reason.strip())
        standings_refresh(tournament=tournament)
    return round_


def _matches_cancel(pairings: Sequence[Pairing], *, by: AbstractBaseUser, reason: str) -> None:
    """Cancel the matches of replaced pairings. The organiser rules in person when they
    organise the match too; otherwise the system user does (an organiser of every
    tournament match), with the organiser named in the tournament's stream event."""
    system = None
    for pairing in pairings:
        if pairing.match_id is None:
            continue  # a bye
        match = match_get(match_id=pairing.match_id)
        ruler = by
        if not user_can_organise_match(user=by, match=match):
            system = system or system_user()
            ruler = system
        match_rule_in_tx(match_id=pairing.match_id, by=ruler, type="cancel", reason=reason)


def _validate_manual_pairs(
    pairs: Sequence[tuple[int, int | None]], seeded: Sequence[int]
) -> list[Pair]:
    flat = [p for pair in pairs for p in pair if p is not None]
    if sorted(flat) != sorted(seeded):
        raise ValidationError("the pairs must name every active player exactly once", code="pairs")
    if sum(1 for pair in pairs if pair[1] is None) > 1:
        raise ValidationError("at most one bye per round", code="pairs")
    return [Pair(first=a, second=b) for a, b in pairs]


def tournament_match_result_record(*, match_id: Any) -> Pairing | None:
    """Copy a finished match's result into its pairing; complete the round when it was the
    last. Idempotent: a pairing already finished is left alone."""
    pairing_ref = Pairing.objects.filter(match_id=match_id).select_related("round").first()
    if pairing_ref is None:
        return None  # not a tournament match (or one replaced by a re-pairing)
    with service_transaction():
        tournament = tournament_lock(tournament_id=pairing_ref.round.tournament_id)
        pairing = Pairing.objects.select_related("round").get(pk=pairing_ref.pk)
        outcome = match_outcomes(match_ids=[pairing.match_id]).get(str(pairing.match_id))
        if outcome is None or outcome.status != "finished":
            return None
        if pairing.status == Pairing.Status.FINISHED:
            return _result_correct(tournament, pairing, outcome)
        pairing.status = Pairing.Status.FINISHED
        for name, value in _result_values(outcome).items():
            setattr(pairing, name, value)
        pairing.save()
        events = [(stream.RESULT_RECORDED, _result_data(pairing))]
        round_ = pairing.round
        if not round_.pairings.exclude(status=Pairing.Status.FINISHED).exists():
            events += _round_complete(tournament, round_)
        stream.stream_append(tournament=tournament, events=events)
        standings_refresh(tournament=tournament)
    return pairing


def _result_values(outcome: MatchOutcome) -> dict[str, Any]:
    """The pairing's result fields from its match's outcome (the pairing's player1 is the
    match's player1)."""
    return {
        "winner_id": outcome.winner,
        "games1": outcome.games_won[0],
        "games2": outcome.games_won[1],
        "points1": outcome.points[0],
        "points2": outcome.points[1],
        "result_reason": "forfeit" if outcome.finish_reason == "forfeit" else "played",
    }


def _later_round_note(tournament: Tournament, round_number: int) -> dict[str, Any]:
    """What a corrected result of round `round_number` means for the round after it: not
    paired yet (its pairing will use the corrected standings), paired but not started (the
    organiser may re-pair it), or started (the pairings stand: arbiters' practice)."""
    later = Round.objects.filter(tournament=tournament, number=round_number + 1).first()
    if later is None:
        return {"next_round": None}
    started = any(_match_started(p) for p in later.pairings.all())
    return {"next_round": later.number, "repair_possible": not started}


def _result_correct(
    tournament: Tournament, pairing: Pairing, outcome: MatchOutcome
) -> Pairing | None:
    """A finished match's corrected result differs from the one recorded: record the new
    one (ResultCorrected, before and after) and refresh the standings. Idempotent."""
    values = _result_values(outcome)
    if all(getattr(pairing, k) == v for k, v in values.items()):
        return None  # the same result: a repeated job
    before = _result_data(pairing)
    for k, v in values.items():
        setattr(pairing, k, v)
    pairing.save()
    data = {"round": pairing.round.number, "table": pairing.table, "before": before}
    data |= {"after": _result_data(pairing), **_later_round_note(tournament, pairing.round.number)}
    stream.stream_append(tournament=tournament, events=[(stream.RESULT_CORRECTED, data)])
    standings_refresh(tournament=tournament)
    return pairing


def tournament_match_result_withdraw(*, match_id: Any) -> Pairing | None:
    """A correction put a finished match back in play: its pairing's result no longer
    stands (ResultCorrected with no result after); the pairing waits for the match again.
    Idempotent."""
    pairing_ref = Pairing.objects.filter(match_id=match_id).select_related("round").first()
    if pairing_ref is None:
        return None
    with service_transaction():
        tournament = tournament_lock(tournament_id=pairing_ref.round.tournament_id)
        pairing = Pairing.objects.select_related("round").get(pk=pairing_ref.pk)
        outcome = match_outcomes(match_ids=[pairing.match_id]).get(str(pairing.match_id))
        if pairing.status != Pairing.Status.FINISHED or outcome is None:
            return None
        if outcome.status == "finished":
            return None
        before = _result_data(pairing)
        pairing.status = Pairing.Status.PENDING
        pairing.winner_id = None
        pairing.games1 = pairing.games2 = pairing.points1 = pairing.points2 = 0
        pairing.result_reason = ""
        pairing.save()
        round_ = pairing.round
        if round_.status == Round.Status.COMPLETED:
            round_.status = Round.Status.PAIRED
            round_.save(update_fields=["status"])
        data = {"round": round_.number, "table": pairing.table, "before": before, "after": None}
        data |= _later_round_note(tournament, round_.number)
        stream.stream_append(tournament=tournament, events=[(stream.RESULT_CORRECTED, data)])
        standings_refresh(tournament=tournament)
    return pairing


def _round_complete(tournament: Tournament, round_: Round) -> list[tuple[str, dict]]:
    round_.status, round_.completed_at = Round.Status.COMPLETED, timezone.now()
    round_.save(update_fields=["status", "completed_at"])
    events: list[tuple[str, dict]] = [(stream.ROUND_COMPLETED, {"round": round_.number})]
    last = tournament.rounds_planned is not None and round_.number >= tournament.rounds_planned
    if last or (tournament.format == "knockout" and round_.pairings.count() == 1):
        tournament.status, tournament.finished_at = Tournament.Status.FINISHED, timezone.now()
        tournament.save(update_fields=["status", "finished_at"])
        events.append((stream.TOURNAMENT_FINISHED, {"rounds": round_.number}))
    else:
        _next_round_enqueue(tournament, round_.number + 1)
    return events


def _next_round_enqueue(tournament: Tournament, number: int) -> None:
    """After commit, queue the next round's pairing: now, or at its scheduled start (the
    beat job `tournament_rounds_start_due` catches a lost ETA)."""
    start = round_start(tournament=tournament, number=number)
    eta = start if start is not None and start > timezone.now() else None
    jobs.round_pair_on_commit(tournament_id=tournament.pk, round_number=number, eta=eta)


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
    _require_organiser(by, tournament)
    return tournament_results_reconcile(tournament_id=tournament_id)
