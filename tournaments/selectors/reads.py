"""A tournament's rows as its pages and the API read them: rounds, registrations,
pairings, standings and places, its bracket, its language, its forbidden pairs."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any

from django.db.models import Q, QuerySet

from tournaments.domain.brackets import bracket_data
from tournaments.domain.standings import standings_of
from tournaments.models import Pairing, Registration, Round, Standing, Tournament
from tournaments.projections import tournament_tiebreaks
from tournaments.repository import state_of


def match_dispute_window(*, match_id: Any) -> dt.timedelta | None:
    """The dispute window of the tournament the match is played in (None: no limit, or
    not a tournament match)."""
    pairing = Pairing.objects.filter(match_id=match_id).select_related("round__tournament")
    found = pairing.first()
    return found.round.tournament.dispute_window if found is not None else None


def knockout_dependent_match_in_play(*, match_id: Any, winner: Any) -> tuple | None:
    """(round, table, match id) of the knockout match in play that `winner` of `match_id`
    went on to play, if there is one."""
    pairing = (
        Pairing.objects.filter(match_id=match_id, round__tournament__format="knockout")
        .select_related("round")
        .first()
    )
    if pairing is None or winner is None:
        return None
    later = (
        Pairing.objects.filter(
            round__tournament_id=pairing.round.tournament_id,
            round__number__gt=pairing.round.number,
            status=Pairing.Status.PENDING,
            match__isnull=False,
        )
        .filter(Q(player1_id=winner) | Q(player2_id=winner))
        .select_related("round")
        .order_by("round__number")
        .first()
    )
    if later is None:
        return None
    return (later.round.number, later.table, later.match_id)


def tournament_language(*, tournament: Tournament) -> str:
    """The tournament's language (prints, the wall screen, a page's last fallback but
    English): its own, else its club's, else "" (English)."""
    club = tournament.club if tournament.club_id else None
    return tournament.language or (club.language if club is not None else "") or ""


def tournament_jalali_dates(*, tournament: Tournament | None) -> bool:
    """Persian pages of the tournament show Solar Hijri dates unless its club turned it off."""
    club = tournament.club if tournament is not None and tournament.club_id else None
    return club.jalali_dates if club is not None else True


def tournament_rounds(*, tournament: Tournament) -> QuerySet[Round]:
    return tournament.rounds.order_by("number")


def tournament_registrations(*, tournament: Tournament) -> QuerySet[Registration]:
    """Its entries with their players, seed order first (the model's order, stable for pages)."""
    return tournament.registrations.select_related("player").order_by("seed", "registered_at", "id")


def tournament_pairings(*, tournament: Tournament, round_number: int | None) -> QuerySet[Pairing]:
    qs = Pairing.objects.filter(round__tournament=tournament).select_related(
        "round", "player1", "player2", "winner", "match"
    )
    if round_number is not None:
        qs = qs.filter(round__number=round_number)
    return qs.order_by("round__number", "table")


def pairings_in_play_of(*, tournament: Tournament, player: Any) -> list[Pairing]:
    """The player's pairings whose match is still being played."""
    return list(
        Pairing.objects.filter(
            Q(player1=player) | Q(player2=player),
            round__tournament=tournament,
            status=Pairing.Status.PENDING,
            match__isnull=False,
        ).select_related("player1", "player2", "round")
    )


def tournament_tiebreak_order(*, tournament: Tournament) -> list[str]:
    """The tiebreaks the standings are ranked by, in order (the setting or the default)."""
    return tournament_tiebreaks(tournament=tournament)


def tournament_standings(*, tournament: Tournament) -> list[Standing]:
    """The standings rows in rank order (the total order: pairing, seeding), each with its
    `place` (players equal on every tiebreak share one: standard competition ranking, 1, 2,
    2, 4) and `shared` (whether another row has that place), from the tournament's state."""
    rows = list(tournament.standings.select_related("player").order_by("rank", "player_id"))
    places = tournament_places(tournament=tournament) if rows else {}
    taken = Counter(places.get(row.player_id, row.rank) for row in rows)
    for row in rows:
        row.place = places.get(row.player_id, row.rank)  # type: ignore[attr-defined]
        row.shared = taken[row.place] > 1  # type: ignore[attr-defined]
    return rows


def tournament_places(*, tournament: Tournament) -> dict[int, int]:
    """Each player's place in the standings (shared by players equal on every tiebreak;
    a finished bracket's places as the bracket decided them). Empty where the recorded
    results do not make standings (a result naming a player who did not play it, which
    the pages mark): each row's place is then its rank."""
    state = state_of(tournament=tournament)
    try:
        lines = standings_of(state)
    except ValueError:
        return {}
    return {line.player: line.place or line.rank for line in lines}


def active_registration_count(*, tournament: Tournament) -> int:
    """Players who may be paired now (checked in, or registered where no check-in is asked)."""
    statuses = [Registration.Status.CHECKED_IN]
    if not tournament.check_in_required:
        statuses.append(Registration.Status.REGISTERED)
    return Registration.objects.filter(tournament=tournament, status__in=statuses).count()


def tournament_forbidden_pairs(*, tournament: Tournament) -> list[tuple[int, int]]:
    """The pairs of players who must not meet (lower id first), as the events say."""
    return sorted(state_of(tournament=tournament).forbidden)


def tournament_bracket(*, tournament: Tournament) -> dict[str, Any]:
    """The tournament's bracket as data a client can draw (the API's and the pages' one
    source): each match's slot, bracket, round, players, seeds, status, winner, and where its
    winner and loser go. A double elimination's winners' ("W") and losers' ("L") brackets and
    grand final ("GF"); a knockout's, or a Swiss top cut's once its cut is made, single
    bracket ("K", with "3P" for a third-place match). `format` says which ("" and no matches:
    a format with no bracket, or a top cut before its cut); `first_round` is the
    tournament round of the bracket's first round (a top cut's: after the Swiss). Never
    fails on results the bracket cannot take: it is answered as far as they are consistent,
    and `problems` (and each match's `problem`) mark the rest
    (tournaments.domain.brackets)."""
    return bracket_data(state_of(tournament=tournament))


# --- what the operators' side asks (core.alerts, core.metrics: registered in apps.py) ------
