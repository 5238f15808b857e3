"""Reads for the pages (web/): lists and plain values, not querysets, so a page renders what
a selector chose and shapes no query itself (issue 31). Reads only, from the tournaments'
read models. Its names may be imported from `tournaments.selectors` itself."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from tournaments.models import Pairing, Registration, Round, Tournament
from tournaments.selectors.access import matches_followable, tournament_list_for
from tournaments.selectors.reads import tournament_pairings, tournament_registrations

User = Any


# --- lists of tournaments and matches -------------------------------------------------------


def tournaments_newest_for(*, user: User, limit: int) -> list[Tournament]:
    """The tournaments `user` may see (tournament_list_for), newest first, at most `limit`."""
    return list(tournament_list_for(user=user).order_by("-created_at")[:limit])


def tournaments_organised_by(*, user: User, limit: int) -> list[Tournament]:
    """The tournaments `user` organises (staff: every one), newest first, at most `limit`:
    the desk's home."""
    tournaments = tournament_list_for(user=user)
    if not user.is_staff:
        tournaments = tournaments.filter(Q(organisers=user) | Q(club__organisers=user))
    return list(tournaments.distinct().order_by("-created_at")[:limit])


def matches_followable_newest(*, user: User, limit: int) -> list[Any]:
    """The matches `user` may follow (matches_followable) in their order, with their
    players and winner, at most `limit`."""
    qs = matches_followable(user=user).select_related("player1", "player2", "winner")
    return list(qs[:limit])


# --- a tournament's rounds ------------------------------------------------------------------


def tournament_round_list(*, tournament: Tournament) -> list[Round]:
    """Its rounds in order."""
    return list(tournament.rounds.order_by("number"))


@dataclass(frozen=True)
class RoundWithPairings:
    """A round and its pairings by table (their players and winners read)."""

    round: Round
    pairings: list[Pairing]


def tournament_rounds_with_pairings(*, tournament: Tournament) -> list[RoundWithPairings]:
    """Its rounds in order, each with its pairings by table: two queries."""
    pairings = Pairing.objects.filter(round__tournament=tournament).select_related(
        "player1", "player2", "winner"
    )
    by_round: dict[int, list[Pairing]] = {}
    for p in pairings.order_by("table"):
        by_round.setdefault(p.round_id, []).append(p)
    return [
        RoundWithPairings(round=r, pairings=by_round.get(r.pk, []))
        for r in tournament.rounds.order_by("number")
    ]


def tournament_round(*, tournament: Tournament, number: int) -> Round | None:
    """Its round `number`, or None."""
    return tournament.rounds.filter(number=number).first()


def tournament_rounds_completed(*, tournament: Tournament) -> int:
    """How many of its rounds are completed."""
    return tournament.rounds.filter(status=Round.Status.COMPLETED).count()


# --- a tournament's pairings ----------------------------------------------------------------


def tournament_pairing_list(*, tournament: Tournament, round_number: int | None) -> list[Pairing]:
    """Its pairings (of round `round_number`; None: of every round) by round and table,
    with their round, players, winner and match read (tournament_pairings)."""
    return list(tournament_pairings(tournament=tournament, round_number=round_number))


def tournament_pairing_at(
    *, tournament: Tournament, round_number: int, table: int, with_match: bool = False
) -> Pairing | None:
    """The pairing at `table` in round `round_number` (`with_match`: only one that has a
    match, not a bye), or None."""
    qs = tournament_pairings(tournament=tournament, round_number=round_number).filter(table=table)
    if with_match:
        qs = qs.filter(match__isnull=False)
    return qs.first()


def tournament_pairing_of_match(*, tournament: Tournament, match_id: Any) -> Pairing | None:
    """The tournament's pairing whose match is `match_id`, or None (not one of its matches)."""
    return (
        tournament_pairings(tournament=tournament, round_number=None)
        .filter(match_id=match_id)
        .first()
    )


# --- a tournament's entries -----------------------------------------------------------------


def tournament_registration_list(*, tournament: Tournament) -> list[Registration]:
    """Its entries with their players, seed order first (tournament_registrations)."""
    return list(tournament_registrations(tournament=tournament))


def tournament_registrations_with_status(
    *, tournament: Tournament, statuses: Any
) -> list[Registration]:
    """Its entries whose status is one of `statuses`, with their players, seed order first
    (tournament_registrations)."""
    return list(tournament_registrations(tournament=tournament).filter(status__in=list(statuses)))


def tournament_registrations_with_accounts(*, tournament: Tournament) -> list[Registration]:
    """Its entries with their players, the players' accounts and clubs, by the players'
    names (the roster: a page sorts them again in its language's order)."""
    qs = tournament.registrations.select_related("player__user", "player__club")
    return list(qs.order_by("player__name"))


def tournament_registration_of(*, tournament: Tournament, player_id: Any) -> Registration | None:
    """The entry of player `player_id` (with the player and the player's club), or None."""
    qs = tournament.registrations.select_related("player__club").filter(player_id=player_id)
    return qs.first()


def tournament_player_ids(*, tournament: Tournament) -> list[int]:
    """The ids of its entries' players (whatever their status)."""
    return list(tournament.registrations.values_list("player_id", flat=True))
