"""Rounds: pairing (by the scheduler or by hand) and re-pairing. load → decide → the
round's matches made (the games side) → save.

Exactly-once pairing: the service locks the tournament row and `decide` returns nothing
for a round already paired; the append's expected version and the unique constraint
(tournament, number) back the lock up, so a job delivered twice, or run by two workers at
once, pairs the round once."""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

import eventstore
from core import metrics
from core.alerts import alert_raise, alert_resolve
from core.errors import ConflictError, PermissionDeniedError, ValidationError
from core.transactions import write_service
from games.selectors import match_get, user_can_organise_match
from games.services import match_create_in_tx, match_rule_in_tx
from players.models import Player
from tournaments import jobs
from tournaments.domain import TournamentEvent
from tournaments.domain.commands import AllowPair, ForbidPair, PairRound, RepairRound
from tournaments.domain.events import RoundPaired
from tournaments.domain.state import TournamentState
from tournaments.models import Round, Tournament
from tournaments.ratings.selectors import seeding_ratings
from tournaments.repository import TournamentWrite, system_user, tournament_load, tournament_save
from tournaments.selectors import tournaments_with_rounds_due, user_can_organise
from tournaments.services._common import ORGANISERS_ONLY, decided, require_organiser

_FORMAT_LABEL = {
    "round_robin": "RR",
    "swiss": "Swiss",
    "knockout": "KO",
    "double_elimination": "DE",
}


def _ratings(tournament: Tournament, state: TournamentState) -> dict[int, float]:
    """The players' ratings, which order the seeds of round 1 and break a top cut's ties:
    the club's rating where the player has one, else the club's initial rating (1500
    unless its settings say otherwise; 1500 without a club)."""
    return seeding_ratings(club=tournament.club, player_ids=list(state.entries))


def _match_ids(state: TournamentState) -> tuple[str, ...]:
    """Ids for the matches of a round, made before it is decided (`decide` names each
    table's match by one): enough for every entered player to play."""
    return tuple(str(uuid.uuid4()) for _ in range(len(state.entries) // 2 + 1))


def _matches_make(
    write: TournamentWrite, events: Sequence[TournamentEvent], by: AbstractBaseUser | None
) -> None:
    """Make the match of each real pair of a (re-)paired round under the id the decision
    named it by (the games side owns matches; the tournament's event says which is
    whose). The event is stored as decided: nothing here changes it."""
    tournament = write.row
    for event in events:
        if not isinstance(event, RoundPaired):
            continue
        ids = [p for e in event.pairings for p in (e.player1, e.player2) if p is not None]
        players = Player.objects.in_bulk(ids)
        organisers = [*tournament.organisers.all(), system_user()]
        if tournament.club is not None:
            organisers += list(tournament.club.organisers.all())
        label = _FORMAT_LABEL[tournament.format]
        for entry in event.pairings:
            if entry.player2 is None:
                continue
            assert entry.match is not None  # named by decide (PairRound.match_ids)
            match = match_create_in_tx(
                player1=players[entry.player1],
                player2=players[entry.player2],
                ruleset=tournament.ruleset,
                first_dealer=players[entry.player1],
                mode=tournament.play_mode,
                organisers=organisers,
                created_by=by,
                label=f"{label} R{event.round} T{entry.table}",
                match_id=uuid.UUID(entry.match),
            )
            if match.version != entry.match_version:  # MATCH_VERSION_WHEN_MADE is wrong
                raise RuntimeError(
                    f"match {match.pk} made at version {match.version}, not {entry.match_version}"
                )


@write_service
def tournament_round_pair(
    *,
    tournament_id: int,
    round_number: int,
    by: AbstractBaseUser | None = None,
    reason: str = "",
    confirm: bool = True,
) -> Round | None:
    """Pair round `round_number` and create its matches. Returns None, writing nothing, when
    the round is already paired (a repeated job) or, for the scheduler (`by` None), when its
    start time has not come. An organiser (`by`) may pair a round early; round 1 more than
    an hour early only with `confirm` (else 409, reason before_schedule)."""
    return _round_pair_once(tournament_id, round_number, by, reason, confirm)[1]


def _round_pair_once(
    tournament_id: int,
    number: int | None,
    by: AbstractBaseUser | None,
    reason: str,
    confirm: bool,
) -> tuple[int, Round | None]:
    """Pair round `number` (None: the one after the current), once: (its number, the
    round, or None where nothing was paired)."""
    try:
        with transaction.atomic():  # a savepoint: a lost race leaves the rest usable
            return _round_pair(tournament_id, number, by, reason, confirm)
    except (IntegrityError, eventstore.ConcurrencyError):
        # Another transaction paired it between our read and our append (no row lock on
        # SQLite): the expected version or the unique constraint stopped us.
        done = Round.objects.filter(tournament_id=tournament_id, number=number)
        if number is not None and done.exists():
            return number, None
        raise


def _round_pair(
    tournament_id: int,
    number: int | None,
    by: AbstractBaseUser | None,
    reason: str,
    confirm: bool,
) -> tuple[int, Round | None]:
    write = tournament_load(tournament_id=tournament_id)  # the one read of the tournament
    require_organiser(by, write.row)
    if number is None:
        number = write.state.current_round + 1
    # A draw of lots for a top cut's last ties (the service's randomness, recorded in the
    # round's event when it was used).
    lots = list(write.state.entries)
    secrets.SystemRandom().shuffle(lots)
    command = PairRound(
        number=number,
        now=timezone.now(),
        by_scheduler=by is None,
        ratings=_ratings(write.row, write.state),
        lots=tuple(lots),
        confirm=confirm,
        match_ids=_match_ids(write.state),
    )
    events = decided(write, command)
    if not any(isinstance(e, RoundPaired) for e in events):
        return number, None
    _matches_make(write, events, by)
    tournament_save(write, events, by=by, reason=reason, at=command.now)
    metrics.on_commit(metrics.rounds_paired.inc)
    # A round paired (by the scheduler or by hand) is no longer one that cannot be.
    alert_resolve(key=round_unpairable_key(write.row.pk, number))
    return number, Round.objects.get(tournament=write.row, number=number)


@write_service
def tournament_rounds_due_queue() -> list[tuple[int, int]]:
    """Queue the pairing of every round whose start time has come (beat's job), through
    the outbox like every job: recorded together, relayed after commit. The (tournament,
    round) pairs queued."""
    due = list(tournaments_with_rounds_due())
    for tournament_id, number in due:
        jobs.round_pair_on_commit(tournament_id=tournament_id, round_number=number, eta=None)
    return due


def round_unpairable_key(tournament_id: int, round_number: int) -> str:
    return f"round_unpairable:{tournament_id}:{round_number}"


def tournament_round_unpairable(*, tournament_id: int, round_number: int, reason: str) -> None:
    """The scheduler could not pair a round (too few players, the previous round still in
    play): an alert for the tournament's organisers (the desk's banner, an e-mail), once
    while the round stays unpaired; pairing it closes the alert."""
    alert_raise(
        kind="round_unpairable",
        key=round_unpairable_key(tournament_id, round_number),
        tournament_id=tournament_id,
        params={"round": round_number, "reason": reason[:200]},
    )


@write_service
def tournament_round_start_next(
    *, tournament_id: int, by: AbstractBaseUser, reason: str = "", confirm: bool = True
) -> Round:
    """Pair and start the round after the current one now (round 1 starts the
    tournament); a round that cannot be paired now (already paired, previous round in
    play) is 409 `conflict`, reason round_not_startable; round 1 more than an hour before
    its scheduled time needs `confirm` (409, reason before_schedule). Which round is next
    is read under the tournament's lock, with its state (one read)."""
    number, round_ = _round_pair_once(tournament_id, None, by, reason, confirm)
    if round_ is None:
        raise ConflictError(
            gettext_noop("round %(round)s cannot be started"),
            extra={"reason": "round_not_startable"},
            params={"round": number},
        )
    return round_


def tournament_start(
    *, tournament_id: int, by: AbstractBaseUser, reason: str = "", confirm: bool = True
) -> Round | None:
    """Start the tournament now: pair round 1 (by hand, before any scheduled time; more
    than an hour before it only with `confirm`)."""
    return tournament_round_pair(
        tournament_id=tournament_id, round_number=1, by=by, reason=reason, confirm=confirm
    )


def match_started(*, match_id: str | None, version_at_pairing: int) -> bool:
    """Has play begun in a pairing's match (the games side's version moved on)?"""
    if match_id is None:
        return False
    match = match_get(match_id=match_id)
    return match.status == "finished" or match.version > version_at_pairing


def round_started(state: TournamentState, number: int) -> bool:
    round_ = state.rounds.get(number)
    return round_ is not None and any(
        match_started(match_id=t.match, version_at_pairing=t.match_version) for t in round_.tables
    )


@write_service
def tournament_round_repair(
    *,
    tournament_id: int,
    round_number: int,
    by: AbstractBaseUser,
    reason: str,
    pairs: Sequence[tuple[int, int | None]] | None = None,
    expected_version: int | None = None,
    confirm: bool = False,
) -> Round:
    """Replace a round's pairings, computed afresh or the organiser's own `pairs` (player
    ids; None = bye). Only while none of its matches has started. The old matches are
    cancelled (a MatchCancelled event in their streams, in the same transaction), so that
    nobody can play them and their players see them as finished, with no winner.

    `expected_version`: the tournament's version the organiser saw; a stale one (another
    re-pairing, a result, a double click) is refused with 409 version_conflict. Hand-set
    `pairs` that repeat an earlier pairing or break a forbidden pair are refused (409,
    reason `rematch` / `forbidden_pair`) unless `confirm`."""
    if not reason.strip():
        raise ValidationError("a re-pairing needs a reason", code="reason_required")
    write = tournament_load(tournament_id=tournament_id)
    if not user_can_organise(user=by, tournament=write.row):
        raise PermissionDeniedError(ORGANISERS_ONLY)
    now = timezone.now()
    command = RepairRound(
        number=round_number,
        now=now,
        started=round_started(write.state, round_number),
        pairs=tuple(tuple(p) for p in pairs) if pairs is not None else None,  # type: ignore[misc]
        expected_version=expected_version,
        confirm=confirm,
        match_ids=_match_ids(write.state),
    )
    events = decided(write, command)
    repaired = next(e for e in events if isinstance(e, RoundPaired))
    _matches_cancel(
        repaired.replaced, by=by, reason=f"round {round_number} re-paired: {reason.strip()}"
    )
    _matches_make(write, events, by)
    tournament_save(write, events, by=by, reason=reason.strip(), at=now)
    return Round.objects.get(tournament=write.row, number=round_number)


def _matches_cancel(match_ids: Sequence[str], *, by: AbstractBaseUser, reason: str) -> None:
    """Cancel the matches of replaced pairings. The organiser rules in person when they
    organise the match too; otherwise the system user does (an organiser of every
    tournament match), with the organiser named in the tournament's stream event."""
    system = None
    for match_id in match_ids:
        ruler = by
        if not user_can_organise_match(user=by, match=match_get(match_id=match_id)):
            system = system or system_user()
            ruler = system
        match_rule_in_tx(match_id=match_id, by=ruler, type="cancel", reason=reason)


__all__ = [
    "match_started",
    "require_organiser",
    "round_started",
    "tournament_round_pair",
    "tournament_round_repair",
    "tournament_round_start_next",
    "tournament_start",
]


@write_service
def _forbidden_change(
    *, tournament_id: int, players: Sequence[int], by: AbstractBaseUser, reason: str, add: bool
) -> list[tuple[int, int]]:
    if len(players) != 2:
        raise ValidationError("a forbidden pair names two players", code="pair")
    write = tournament_load(tournament_id=tournament_id)
    if not user_can_organise(user=by, tournament=write.row):
        raise PermissionDeniedError(ORGANISERS_ONLY)
    pair = (int(players[0]), int(players[1]))
    command = ForbidPair(players=pair) if add else AllowPair(players=pair)
    saved = tournament_save(write, decided(write, command), by=by, reason=reason)
    return sorted(saved.state.forbidden)


def tournament_forbidden_pair_add(
    *, tournament_id: int, players: Sequence[int], by: AbstractBaseUser, reason: str = ""
) -> list[tuple[int, int]]:
    """Mark two entered players who must not meet (ForbiddenPairAdded); the forbidden pairs
    after it. Swiss and a knockout's first round keep them apart where any valid pairing
    does, and say so in the round's event where none does; a round robin refuses them."""
    return _forbidden_change(
        tournament_id=tournament_id, players=players, by=by, reason=reason, add=True
    )


def tournament_forbidden_pair_remove(
    *, tournament_id: int, players: Sequence[int], by: AbstractBaseUser, reason: str = ""
) -> list[tuple[int, int]]:
    """They may meet again (ForbiddenPairRemoved); the forbidden pairs after it."""
    return _forbidden_change(
        tournament_id=tournament_id, players=players, by=by, reason=reason, add=False
    )
