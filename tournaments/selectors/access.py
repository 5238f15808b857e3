"""Who may see or organise a tournament, act as a player, follow a match; the
tournaments a user may see."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet

from core.errors import NotFoundError
from games.selectors import match_list_followable, match_seat_for, user_can_organise_match
from players.models import Player
from tournaments.models import Pairing, Tournament
from tournaments.selectors.players import MatchPlace as MatchPlace  # the players' reads
from tournaments.selectors.players import match_places as match_places
from tournaments.selectors.players import player_pairings as player_pairings
from tournaments.selectors.players import player_standing as player_standing
from tournaments.selectors.players import (
    player_tournament_match_ids as player_tournament_match_ids,
)
from tournaments.selectors.players import player_tournaments as player_tournaments

User = AbstractBaseUser | AnonymousUser | None


def user_can_organise(*, user: User, tournament: Tournament) -> bool:
    """Staff, the tournament's organisers and its club's organisers."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or user.is_superuser:
        return True
    if tournament.organisers.filter(pk=user.pk).exists():
        return True
    return tournament.club is not None and tournament.club.organisers.filter(pk=user.pk).exists()


def user_may_act_as_player(*, user: User, player: Player) -> bool:
    """Authority over a person's account (issuing a sign-in code acts as the person): staff,
    or an organiser of the club that owns the account. A player of no club is nobody's
    member: the organisers of every tournament they are entered in, and only while all of
    them are, may act for them (a walk-in of one's own evening). Entering someone in one's
    own tournament never gives it (issue 32)."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or user.is_superuser:
        return True
    if player.club_id is not None:
        return player.club.organisers.filter(pk=user.pk).exists()
    entered = Tournament.objects.filter(registrations__player=player)
    if not entered.exists():
        return False
    not_theirs = entered.exclude(Q(organisers=user) | Q(club__organisers=user))
    return not not_theirs.exists()


def tournament_list_for(*, user: User) -> QuerySet[Tournament]:
    """Public tournaments, plus the private ones the user organises or plays in."""
    qs = Tournament.objects.select_related("club")
    if user is not None and user.is_authenticated and (user.is_staff or user.is_superuser):
        return qs
    if user is None or not user.is_authenticated:
        return qs.filter(is_public=True)
    return qs.filter(
        Q(is_public=True)
        | Q(organisers=user)
        | Q(club__organisers=user)
        | Q(registrations__player__user=user)
    ).distinct()


def matches_followable(*, user: User) -> QuerySet:
    """The matches `user` may follow: see `match_followable`."""
    visible = tournament_list_for(user=user)
    ids = Pairing.objects.filter(round__tournament__in=visible, match__isnull=False)
    return match_list_followable(user=user, also_ids=ids.values("match_id"))


def matches_hidden_from(*, user: User) -> QuerySet:
    """The ids of the matches of private tournaments that `user` may not see (registered
    with games.selectors in TournamentsConfig.ready(): games know nothing of tournaments)."""
    private = Tournament.objects.filter(is_public=False).exclude(
        pk__in=tournament_list_for(user=user).values("pk")
    )
    pairings = Pairing.objects.filter(round__tournament__in=private, match__isnull=False)
    return pairings.values("match_id")


def match_in_public_tournament(*, match_id: Any) -> bool:
    """Whether the match is played in a public tournament (registered with games.selectors
    in TournamentsConfig.ready(): such a match is for anyone to read, signed out too)."""
    return Pairing.objects.filter(match_id=match_id, round__tournament__is_public=True).exists()


def match_followable(*, user: User, match: Any) -> bool:
    """May `user` follow `match` (its page)? Its players and organisers (and staff) may,
    and anyone who may see a tournament the match belongs to."""
    if user_can_organise_match(user=user, match=match):
        return True
    if match_seat_for(user=user, match=match) is not None:
        return True
    visible = tournament_list_for(user=user)
    return Pairing.objects.filter(match_id=match.pk, round__tournament__in=visible).exists()


def tournament_get(*, tournament_id: Any, user: User = None) -> Tournament:
    """The tournament if it exists and `user` may see it (None: no visibility check)."""
    qs = Tournament.objects.select_related("club")
    if user is not None:
        qs = tournament_list_for(user=user)
    try:
        return qs.get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError("no such tournament") from exc
