"""A person's own data (GDPR article 15; issue 34): everything held about them, as one JSON
document, with the labels of its sections in their language. Keys and codes stay English
(they are the format); `labels` says what each section is, for the person reading it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_lazy, gettext_noop

import eventstore
from core.errors import NotFoundError, PermissionDeniedError
from core.models import AccessToken, IdempotencyRecord
from players.models import Club, LoginCode, Player
from tournaments.models import Registration, Standing
from tournaments.ratings.models import ClubRating, SeasonStanding

DATA_FORMAT = "hollywood-gin-personal-data/1"

# Each section of the document, labelled in the person's language.
LABELS = {
    "account": gettext_lazy("Your account"),
    "player": gettext_lazy("Your player"),
    "clubs": gettext_lazy("Your clubs"),
    "organises": gettext_lazy("Clubs you organise"),
    "tokens": gettext_lazy("Your sign-in tokens"),
    "login_codes": gettext_lazy("Login codes issued to you"),
    "registrations": gettext_lazy("Your tournament entries"),
    "standings": gettext_lazy("Your standings"),
    "ratings": gettext_lazy("Your club ratings"),
    "season_standings": gettext_lazy("Your season standings"),
    "texts": gettext_lazy("What you wrote (reasons, statements, comments)"),
    "events": gettext_lazy("Events that name you"),
    "requests_remembered": gettext_lazy("Requests remembered for safe retries"),
}


def person_data(
    *, user: AbstractBaseUser | None, player: Player | None, language: str | None = None
) -> dict[str, Any]:
    """Everything held about the person with this login and/or player (module docstring),
    the labels in `language` (else the player's, else the active one)."""
    language = language or (player.language if player is not None else "") or None
    with translation.override(language or translation.get_language()):
        labels = {key: str(label) for key, label in LABELS.items()}
        title = gettext("Everything this club's system holds about you")
    authors = [f"player:{player.pk}"] if player is not None else []
    actors = list(authors)
    data: list[tuple[str, Any]] = []
    if player is not None:
        data.append(("player", player.pk))
    if user is not None:
        authors.append(f"user:{user.pk}")
        actors.append(f"user:{user.pk}")
        data.append(("by__id", user.pk))
    events = eventstore.events_naming(actors=actors, data=data, resolved=True) if actors else []
    return {
        "format": DATA_FORMAT,
        "title": title,
        "made_at": timezone.now(),
        "labels": labels,
        "account": _account(user),
        "player": _player(player),
        "clubs": list(Club.objects.filter(members=player).values("id", "name") if player else []),
        "organises": list(
            Club.objects.filter(organisers=user).values("id", "name") if user else []
        ),
        "tokens": list(
            AccessToken.objects.filter(user=user).values(
                "id", "kind", "name", "prefix", "created_at", "expires_at", "revoked_at"
            )
            if user
            else []
        ),
        "login_codes": list(
            LoginCode.objects.filter(player=player).values(
                "issued_at", "expires_at", "used_at", "revoked_at"
            )
            if player
            else []
        ),
        "registrations": list(
            Registration.objects.filter(player=player).values(
                "tournament_id", "tournament__name", "status"
            )
            if player
            else []
        ),
        "standings": list(
            Standing.objects.filter(player=player).values(
                "tournament_id", "rank", "match_wins", "played", "games_won", "points_diff"
            )
            if player
            else []
        ),
        "ratings": list(
            ClubRating.objects.filter(player=player).values(
                "club_id", "rating", "rd", "volatility", "matches", "periods"
            )
            if player
            else []
        ),
        "season_standings": list(
            SeasonStanding.objects.filter(player=player).values(
                "season_id", "rank", "points", "played", "tournaments_won", "match_wins"
            )
            if player
            else []
        ),
        "texts": eventstore.personal_texts_by(authors=authors),
        "events": [
            {
                "stream_id": e.stream_id,
                "version": e.version,
                "type": e.type,
                "data": e.data,
                "metadata": e.metadata,
                "recorded_at": e.recorded_at,
            }
            for e in events
        ],
        "requests_remembered": IdempotencyRecord.objects.filter(user=user).count() if user else 0,
    }


def player_erase_allowed(*, user: AbstractBaseUser | None, player: Player) -> bool:
    """Who may erase a player, or take their data out for them: staff, and the organisers
    of the player's club or of a club they are a member of."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if user.is_staff:
        return True
    clubs = Club.objects.filter(Q(players=player) | Q(members=player))
    return clubs.filter(organisers=user).exists()


def member_data(*, player_id: Any, user: AbstractBaseUser) -> dict[str, Any]:
    """A member's data, taken out by an organiser acting on their request (the desk's
    button): as `person_data`, in the member's language."""
    player = Player.objects.select_related("user").filter(pk=player_id).first()
    if player is None:
        raise NotFoundError(gettext_noop("no such player"), code="player_not_found")
    if not player_erase_allowed(user=user, player=player):
        raise PermissionDeniedError(
            gettext_noop("only staff and the organisers of the player's clubs may erase them"),
            code="erase_forbidden",
        )
    return person_data(user=player.user, player=player)


def _account(user: AbstractBaseUser | None) -> dict[str, Any] | None:
    if user is None:
        return None
    return {
        "id": user.pk,
        "username": user.get_username(),
        "email": getattr(user, "email", ""),
        "first_name": getattr(user, "first_name", ""),
        "last_name": getattr(user, "last_name", ""),
        "date_joined": getattr(user, "date_joined", None),
        "last_login": user.last_login,
        "is_active": user.is_active,
    }


def _player(player: Player | None) -> dict[str, Any] | None:
    if player is None:
        return None
    return {
        "id": player.pk,
        "name": player.name,
        "club": player.club_id,
        "language": player.language,
        "page_visibility": player.page_visibility,
        "is_bot": player.is_bot,
        "created_at": player.created_at,
    }
