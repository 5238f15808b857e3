"""The round clock and the scheduler's questions: which rounds are due or overdue, when a
round starts, whom to alert."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Q
from django.utils import timezone

from tournaments.domain.state import TEAM_FORMATS, scheduled_start
from tournaments.models import Pairing, Round, Tournament
from tournaments.selectors.players import MatchPlace as MatchPlace  # the players' reads
from tournaments.selectors.players import match_places as match_places
from tournaments.selectors.players import player_pairings as player_pairings
from tournaments.selectors.players import player_standing as player_standing
from tournaments.selectors.players import (
    player_tournament_match_ids as player_tournament_match_ids,
)
from tournaments.selectors.players import player_tournaments as player_tournaments
from tournaments.selectors.reads import active_registration_count, tournament_language


def pairing_overdue(*, pairing: Pairing, now: dt.datetime | None = None) -> bool:
    """Still unplayed past its round's deadline. The deadline job forfeits an online match
    whose player to move is late; a table match waits for an organiser, who can find it by
    this flag."""
    deadline = pairing.round.deadline
    if pairing.status != Pairing.Status.PENDING or deadline is None:
        return False
    return (now or timezone.now()) > deadline


def tournament_round_clock(*, tournament: Tournament, now: dt.datetime | None = None) -> dict:
    """The round clock: the current round (None before round 1), its status, when it
    started (was paired, or the director started its clock) and ends (its deadline), the
    seconds left while it is in play with a deadline; and when the next round is scheduled,
    if it is."""
    now = now or timezone.now()
    round_ = tournament.rounds.filter(number=tournament.current_round).first()
    clock: dict[str, Any] = {
        "round": None, "status": None, "starts_at": None, "ends_at": None,
        "seconds_left": None, "next_round_at": None,
    }  # fmt: skip
    if round_ is not None:
        in_play = round_.status == Round.Status.PAIRED
        left = round_.deadline - now if in_play and round_.deadline is not None else None
        clock |= {
            "round": round_.number, "status": round_.status,
            "starts_at": round_.clock_started_at or round_.paired_at,
            "ends_at": round_.deadline,
            "seconds_left": max(0, int(left.total_seconds())) if left is not None else None,
        }  # fmt: skip
    more = tournament.rounds_planned is None or tournament.current_round < tournament.rounds_planned
    if tournament.status != Tournament.Status.FINISHED and more:
        clock["next_round_at"] = round_start(
            tournament=tournament, number=tournament.current_round + 1
        )
    return clock


def tournament_next_round_due(*, tournament: Tournament, now: dt.datetime) -> int | None:
    """The round the scheduler should pair now, if any (its start time has come)."""
    if tournament.status == Tournament.Status.FINISHED:
        return None
    if tournament.status == Tournament.Status.REGISTRATION and tournament.starts_at is None:
        return None  # started by hand
    last = tournament.rounds.order_by("-number").first()
    if last is not None and last.status != Round.Status.COMPLETED:
        return None
    number = (last.number if last else 0) + 1
    if tournament.rounds_planned and number > tournament.rounds_planned:
        return None
    start = round_start(tournament=tournament, number=number)
    if start is not None and start > now:
        return None
    if number == 1 and active_registration_count(tournament=tournament) < 2:
        return None  # nobody to pair yet: asking every minute would only fail every minute
    return number


def tournaments_with_rounds_due(*, now: dt.datetime | None = None) -> list[tuple[int, int]]:
    """(tournament id, round number) for every round whose time has come but is unpaired."""
    now = now or timezone.now()
    due = []
    # A team format's rounds are its team event's (paired by its organisers and its jobs).
    active = Tournament.objects.exclude(status=Tournament.Status.FINISHED).exclude(
        format__in=TEAM_FORMATS
    )
    for tournament in active.filter(Q(status="in_progress") | Q(starts_at__lte=now)):
        number = tournament_next_round_due(tournament=tournament, now=now)
        if number is not None:
            due.append((tournament.pk, number))
    return due


def round_start(*, tournament: Tournament, number: int) -> dt.datetime | None:
    """When round `number` is scheduled to be paired (UTC), or None: as soon as possible
    (the domain's rule, on the row's schedule). Never raises."""
    return scheduled_start(
        number,
        starts_at=tournament.starts_at,
        round_interval=tournament.round_interval,
        round_starts=tournament.round_starts or (),
    )


def tournament_alert_recipients(tournament_id: int) -> tuple[list[str], str]:
    """The e-mail addresses of a tournament's organisers (its own and its club's) and its
    language: whom an alert about it is sent to, in which words."""
    tournament = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if tournament is None:
        return [], ""
    users = list(tournament.organisers.all())
    if tournament.club is not None:
        users += list(tournament.club.organisers.all())
    addresses = sorted({u.email for u in users if u.email and u.is_active})
    return addresses, tournament_language(tournament=tournament)


ROUND_OVERDUE_AFTER = dt.timedelta(minutes=2)  # the scheduler runs every 30 s by default


def rounds_overdue() -> list[tuple[int, int]]:
    """Rounds whose start time passed more than ROUND_OVERDUE_AFTER ago, still unpaired."""
    return tournaments_with_rounds_due(now=timezone.now() - ROUND_OVERDUE_AFTER)
