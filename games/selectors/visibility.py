"""Who may see a match: its players and organisers and staff always; anyone else as the
match policy says (games/policy.py: hidden from some users, public for everyone)."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Q, QuerySet

from core.errors import NotFoundError
from games.models import Match
from games.policy import match_policy
from players.models import Player
from players.selectors import player_for_user

User = AbstractBaseUser | AnonymousUser | None


def match_get(*, match_id: uuid.UUID | str, user: User | bool = False) -> Match:
    """The match; with `user`, only if that user may see it (`match_visible_to`), else the
    same 404 as for no match at all (a hidden match's existence is not given away)."""
    try:
        match = Match.objects.select_related("player1", "player2").get(pk=match_id)
    except (Match.DoesNotExist, ValueError, TypeError, DjangoValidationError):
        # An unparsable id is simply not a match.
        raise NotFoundError("no such match", code="match_not_found") from None
    if user is not False and not match_visible_to(user=user, match=match):  # type: ignore[arg-type]
        raise NotFoundError("no such match", code="match_not_found")
    return match


# -- who may see a match ---------------------------------------------------------------------
# Games know nothing of the apps that group matches (tournaments): the match policy
# (games/policy.py, named by the setting GAMES_MATCH_POLICY) says which matches a user may
# not see (e.g. those of private tournaments the user may not see) and which are public.
# The match's players and organisers, and staff, always see it.


def _sees_everything(user: User) -> bool:
    return user is not None and user.is_authenticated and (user.is_staff or user.is_superuser)


def match_visible_to(*, user: User, match: Match) -> bool:
    """Signed in: staff, the match's players and organisers, and anyone the match policy
    does not hide it from (e.g. anyone who may see its private tournament). Signed out:
    only a public match (`match_is_public`); never a friendly, which no policy hides."""
    if not _signed_in(user):
        return match_is_public(match=match)
    if _sees_everything(user):
        return True
    hidden = _hidden_query(user)
    if hidden is None:
        return True
    if match_seat_for(user=user, match=match) is not None:
        return True
    if not Match.objects.filter(hidden, pk=match.pk).exists():
        return True
    return user_can_organise_match(user=user, match=match)


def _hidden_query(user: User) -> Q | None:
    """The matches the policy hides from `user`; None when it hides none."""
    hidden = match_policy().matches_hidden_from(user=user)
    return None if hidden is None else Q(pk__in=hidden)


def _visible_only(qs: QuerySet[Match], user: User) -> QuerySet[Match]:
    if not _signed_in(user):
        # Lists are for signed-in callers; a signed-out one reads a public match by its id
        # (from its tournament's pairings), never a friendly.
        return qs.none()
    if _sees_everything(user):
        return qs
    hidden = _hidden_query(user)
    if hidden is None:
        return qs
    if user is not None and user.is_authenticated:
        own = Q(player1__user=user) | Q(player2__user=user) | Q(organisers=user)
        hidden &= ~Q(pk__in=Match.objects.filter(own).values("pk"))
    return qs.exclude(hidden)


# -- public matches ------------------------------------------------------------------------
# The match policy says whether a match is public (a match of a public tournament). A
# public match may be read by anyone, signed out too: while a hand is in play as a
# spectator sees it (no card of either hand, of the stock or of the deck), and each hand
# once over in full, as its players see it. A friendly is not public.


def match_is_public(*, match: Match) -> bool:
    """Does the match policy say the match is public (e.g. a match of a public tournament)?
    Remembered on the instance: a match does not change tournament within a request."""
    cached = getattr(match, "_is_public", None)
    if cached is None:
        cached = bool(match_policy().match_is_public(match_id=match.pk))
        match._is_public = cached  # type: ignore[attr-defined]
    return cached


def match_id_is_public(*, match_id: Any) -> bool:
    """`match_is_public` for an id from a URL: False for no such match (or no id at all),
    so that a signed-out caller learns nothing of a match that is not public."""
    try:
        match = Match.objects.only("pk").get(pk=match_id)
    except (Match.DoesNotExist, ValueError, TypeError, DjangoValidationError):
        return False
    return match_is_public(match=match)


def _signed_in(user: User) -> bool:
    return user is not None and user.is_authenticated


def user_can_organise_match(*, user: User, match: Match) -> bool:
    """Staff, or one of the match's organisers."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or user.is_superuser:
        return True
    return match.organisers.filter(pk=user.pk).exists()


def match_seat_for(*, user: User, match: Match) -> int | None:
    player = player_for_user(user=user)
    return match.seat_of(player.pk) if player is not None else None


def _may_audit(*, user: User, match: Match, seat: int | None) -> bool:
    """The match's players and organisers see decks, salts and both hands once ended."""
    return seat is not None or user_can_organise_match(user=user, match=match)


def player_in_match(*, player: Player, match: Match) -> bool:
    return match.seat_of(player.pk) is not None
