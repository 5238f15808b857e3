"""Writes of club ratings: a finished tournament's period applied (incrementally at the
end, or by re-rating the club from it when it changed or came late), a club re-rated from
a period, the club's rating settings changed (an event on the club's stream), and the
reconciler that catches a lost job. Each computation locks the club's row first, so one
club is rated by one transaction at a time."""

from __future__ import annotations

import logging
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import F, Q
from django.utils.text import slugify
from django.utils.translation import gettext_noop

import eventstore
from core.errors import NotFoundError, PermissionDeniedError, ValidationError
from core.transactions import write_service
from games.selectors import ruleset_normalise
from players.models import Club, Player
from players.selectors import user_is_organiser
from tournaments.domain.glicko2 import (
    InvalidRatingSettingsError,
    RatingSettings,
    settings_check,
)
from tournaments.federation.projection import federations_rerate_for_club_in_tx
from tournaments.models import Tournament
from tournaments.ratings import projection
from tournaments.ratings.models import ClubPeriod, Season
from tournaments.ratings.seasons import club_seasons_refresh_in_tx, season_refresh_in_tx
from tournaments.ratings.selectors import user_can_manage_club

log = logging.getLogger(__name__)

_FIELDS = ("games", "results", "standings", "causes")


def club_ratings_apply_in_tx(*, tournament_id: int) -> str:
    """Bring the club's ratings up to date with one tournament's events (in the caller's
    transaction): a newly finished tournament is the club's next period (incremental),
    or, finished before periods already rated (its job came late), re-rates from it; a
    period whose results changed since it was rated re-rates the club from it. Idempotent
    (the guard: the tournament stream's version the period reflects). Returns what it did:
    "applied", "rerated", "unchanged" or "not_rated" (no club, or not finished)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or tournament.club_id is None:
        return "not_rated"
    club_id = tournament.club_id
    projection.club_lock(club_id=club_id)
    existing = ClubPeriod.objects.filter(tournament_id=tournament_id).first()
    if existing is not None and existing.source_version == tournament.version:
        return "unchanged"
    inputs = projection.period_inputs(tournament=tournament)
    if inputs is None:
        return "not_rated"
    if existing is None:
        period = ClubPeriod.objects.create(club_id=club_id, tournament=tournament, **inputs)
        later = ClubPeriod.objects.filter(
            club_id=club_id, finished_position__gt=period.finished_position
        ).count()
        index = ClubPeriod.objects.filter(
            club_id=club_id, finished_position__lt=period.finished_position
        ).count()
        if later:
            projection.club_rerate_in_tx(club_id=club_id, from_index=index)
            outcome = "rerated"
        else:
            projection.club_period_append_in_tx(club_id=club_id, period=period, index=index)
            outcome = "applied"
        club_seasons_refresh_in_tx(club_id=club_id, tournament_ids=[tournament_id])
        return outcome
    changed = any(getattr(existing, name) != inputs[name] for name in _FIELDS)
    known = {c["position"] for c in existing.causes}
    new_causes = [c["reason"] for c in inputs["causes"] if c["position"] not in known]
    for name, value in inputs.items():
        setattr(existing, name, value)
    existing.save()
    if not changed:
        return "unchanged"
    reason = "; ".join(new_causes) or "results changed"
    club_ratings_rerate_from_in_tx(club_id=club_id, tournament_id=tournament_id, reason=reason)
    return "rerated"


def club_ratings_rerate_from_in_tx(*, club_id: int, tournament_id: int, reason: str) -> None:
    """Re-rate the club's period of `tournament_id` and every later one (and its season
    tables), in the caller's transaction. The history's `rerated` entries come from the
    events that caused it (a result changed after the finish, a settings change), so a
    rebuild shows the same; `reason` is this call's own account, for the log."""
    projection.club_lock(club_id=club_id)
    period = ClubPeriod.objects.filter(club_id=club_id, tournament_id=tournament_id).first()
    index = 0
    if period is not None:
        index = ClubPeriod.objects.filter(
            club_id=club_id, finished_position__lt=period.finished_position
        ).count()
    log.info("re-rating club %s from tournament %s: %s", club_id, tournament_id, reason)
    projection.club_rerate_in_tx(club_id=club_id, from_index=index)
    club_seasons_refresh_in_tx(club_id=club_id, tournament_ids=[tournament_id])


@write_service
def club_ratings_sync(*, tournament_id: int) -> str:
    """The job's service: `club_ratings_apply_in_tx` in its own transaction, which writes
    only the ratings projections (so its commit need not wait for the disk: a crash loses
    it whole, and the reconciler does it again)."""
    projection.commit_without_waiting_in_tx()
    outcome = club_ratings_apply_in_tx(tournament_id=tournament_id)
    if outcome in ("applied", "rerated"):
        # The club's periods changed: so did every list of a federation it belongs to
        # (issue 39), re-rated from those periods in the same transaction.
        club_id = Tournament.objects.filter(pk=tournament_id).values_list("club_id", flat=True)
        federations_rerate_for_club_in_tx(club_id=club_id[0])
    return outcome


def club_ratings_stale() -> list[int]:
    """Finished club tournaments whose period is missing or behind their stream."""
    finished = Tournament.objects.filter(
        club__isnull=False, status=Tournament.Status.FINISHED
    ).filter(Q(rating_period__isnull=True) | ~Q(rating_period__source_version=F("version")))
    return list(finished.order_by("pk").values_list("pk", flat=True))


def club_ratings_reconcile() -> list[int]:
    """Beat's reconciler: apply every finished tournament whose ratings job was lost (the
    broker down at commit, a worker killed mid-job). Returns the tournaments it changed."""
    changed = []
    for tournament_id in club_ratings_stale():
        if club_ratings_sync(tournament_id=tournament_id) in ("applied", "rerated"):
            changed.append(tournament_id)
    return changed


# A refused field's message in `fields` is the error's own: the API shows both in the
# reader's language (config.exception_handler).
_DUPLICATE_CLUB = "a club of that name already exists"
_SEASON_NAME = "a season needs a name"
_SEASON_ORDER = "a season ends after it starts"
_VISIBILITY = "visibility must be public or club"

# --- rating settings -------------------------------------------------------------------------


def club_rating_settings_validate(*, settings: dict[str, Any], base: dict[str, Any]) -> dict:
    """The club's settings after `settings` (a partial change) is applied, checked."""
    unknown = sorted(set(settings) - set(RatingSettings().as_dict()))
    if unknown:
        raise ValidationError(
            gettext_noop("unknown rating settings: %(names)s"),
            extra={
                "fields": {"rating_settings": [f"unknown rating settings: {', '.join(unknown)}"]}
            },
            params={"names": ", ".join(unknown)},
        )
    merged = {**RatingSettings.from_dict(base).as_dict()}
    for name, value in settings.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValidationError(
                gettext_noop("%(name)s must be a number"),
                extra={"fields": {"rating_settings": [f"{name} must be a number"]}},
                params={"name": name},
            )
        merged[name] = float(value)
    try:
        settings_check(RatingSettings(**merged))
    except InvalidRatingSettingsError as exc:
        raise ValidationError(
            exc.template, extra={"fields": {"rating_settings": [str(exc)]}}, params=exc.params
        ) from exc
    return merged


def club_rating_settings_change_in_tx(
    *, club: Club, settings: dict[str, Any], by: AbstractBaseUser | None, reason: str = ""
) -> bool:
    """Change the club's rating settings: an event on the club's stream, the club's row
    (its read model), and the club re-rated from its first period. False: no change."""
    projection.club_lock(club_id=club.pk)
    club.refresh_from_db()
    old = RatingSettings.from_dict(club.rating_settings).as_dict()
    new = club_rating_settings_validate(settings=settings, base=club.rating_settings)
    if new == old:
        return False
    stream_id = projection.club_stream_id(club.pk)
    who = {"id": by.pk} if by is not None else None  # by id only (issue 34)
    eventstore.append(
        stream_id=stream_id,
        expected_version=eventstore.stream_version(stream_id=stream_id),
        events=[
            eventstore.NewEvent(
                type=projection.SETTINGS_CHANGED,
                data={"old": old, "new": new, "by": who, "reason": reason},
                metadata={"by": who["id"] if who else None},
                personal=("reason",),
                author=f"user:{by.pk}" if by is not None else "",
            )
        ],
    )
    Club.objects.filter(pk=club.pk).update(rating_settings=new)
    club.rating_settings = new
    projection.club_rerate_in_tx(club_id=club.pk, from_index=0)
    return True


def club_get_for_manage(*, club_id: int, user: AbstractBaseUser | None) -> Club:
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        raise NotFoundError("no such club", extra={"reason": "club_not_found"})
    if not user_can_manage_club(user=user, club=club):
        raise PermissionDeniedError(
            "only the club's organisers may do this", extra={"reason": "not_club_organiser"}
        )
    return club


# --- clubs -----------------------------------------------------------------------------------


def _check_zone(name: str) -> None:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValidationError(
            gettext_noop("unknown time zone %(zone)s"),
            extra={"fields": {"time_zone": [f"unknown time zone {name!r}"]}, "reason": "unknown"},
            params={"zone": repr(name)},
        ) from exc


def _ruleset(ruleset: dict[str, Any]) -> dict[str, Any]:
    """Every option filled in; a refused one is 400 `invalid_ruleset` (RULES 9)."""
    return ruleset_normalise(ruleset=ruleset)


@write_service
def club_create(
    *,
    name: str,
    by: AbstractBaseUser,
    slug: str = "",
    time_zone: str = "UTC",
    default_ruleset: dict[str, Any] | None = None,
    rating_settings: dict[str, Any] | None = None,
) -> Club:
    """A new club, its creator one of its organisers (organisers and staff only)."""
    if not user_is_organiser(user=by):
        raise PermissionDeniedError("only organisers may create clubs")
    name = name.strip()
    slug = slug.strip() or slugify(name)[:120]
    if not name or not slug:
        raise ValidationError(
            "a club needs a name", extra={"fields": {"name": ["a club needs a name"]}}
        )
    if Club.objects.filter(Q(name__iexact=name) | Q(slug=slug)).exists():
        raise ValidationError(
            _DUPLICATE_CLUB,
            extra={"fields": {"name": [_DUPLICATE_CLUB]}, "reason": "duplicate"},
        )
    _check_zone(time_zone)
    club = Club.objects.create(
        name=name, slug=slug, time_zone=time_zone, default_ruleset=_ruleset(default_ruleset or {})
    )
    club.organisers.add(by)
    if rating_settings:
        club_rating_settings_change_in_tx(club=club, settings=rating_settings, by=by)
    return club


@write_service
def club_update(
    *,
    club_id: int,
    by: AbstractBaseUser,
    name: str | None = None,
    time_zone: str | None = None,
    default_ruleset: dict[str, Any] | None = None,
    rating_settings: dict[str, Any] | None = None,
    reason: str = "",
) -> Club:
    """Change a club (its organisers and staff). A change of the rating settings is an
    event on the club's stream and re-rates the club from its first period."""
    club = club_get_for_manage(club_id=club_id, user=by)
    projection.club_lock(club_id=club.pk)
    fields = []
    if name is not None and name.strip() != club.name:
        if not name.strip():
            raise ValidationError(
                "a club needs a name", extra={"fields": {"name": ["a club needs a name"]}}
            )
        if Club.objects.filter(name__iexact=name.strip()).exclude(pk=club.pk).exists():
            raise ValidationError(
                _DUPLICATE_CLUB,
                extra={"fields": {"name": [_DUPLICATE_CLUB]}, "reason": "duplicate"},
            )
        club.name = name.strip()
        fields.append("name")
    if time_zone is not None:
        _check_zone(time_zone)
        club.time_zone = time_zone
        fields.append("time_zone")
    if default_ruleset is not None:
        club.default_ruleset = _ruleset(default_ruleset)
        fields.append("default_ruleset")
    if fields:
        club.save(update_fields=fields)
    if rating_settings is not None:
        club_rating_settings_change_in_tx(club=club, settings=rating_settings, by=by, reason=reason)
    if "time_zone" in fields:
        club_seasons_refresh_in_tx(club_id=club.pk)  # season days are the club's days
    return club


@write_service
def club_member_add(*, club_id: int, player_id: int, by: AbstractBaseUser) -> Player:
    club = club_get_for_manage(club_id=club_id, user=by)
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise ValidationError(
            "no such player", extra={"fields": {"player": ["no such player"]}, "reason": "unknown"}
        )
    club.members.add(player)
    return player


@write_service
def club_member_remove(*, club_id: int, player_id: int, by: AbstractBaseUser) -> None:
    """A member leaves the club's list (their rating stays: it follows from the events)."""
    club = club_get_for_manage(club_id=club_id, user=by)
    if not club.members.filter(pk=player_id).exists():
        raise NotFoundError("not a member of this club", extra={"reason": "not_a_member"})
    club.members.remove(player_id)


# --- seasons ---------------------------------------------------------------------------------


@write_service
def season_create(
    *,
    club_id: int,
    by: AbstractBaseUser,
    name: str,
    starts_on: Any,
    ends_on: Any,
    place_points: list[int],
    participation_points: int = 0,
    best_of: int | None = None,
    tie_order: list[str] | None = None,
) -> Season:
    """A season of the club (its organisers and staff), its standings computed at once."""
    club = club_get_for_manage(club_id=club_id, user=by)
    if not name.strip():
        raise ValidationError(_SEASON_NAME, extra={"fields": {"name": [_SEASON_NAME]}})
    if ends_on < starts_on:
        raise ValidationError(_SEASON_ORDER, extra={"fields": {"ends_on": [_SEASON_ORDER]}})
    season = Season.objects.create(
        club=club,
        name=name.strip(),
        starts_on=starts_on,
        ends_on=ends_on,
        place_points=list(place_points),
        participation_points=participation_points,
        best_of=best_of,
        tie_order=list(tie_order or Season.TIE_ORDER),
    )
    projection.club_lock(club_id=club.pk)
    season_refresh_in_tx(season=season, zone=ZoneInfo(club.time_zone or "UTC"))
    return season


_SEASON_FIELDS = (
    "name", "starts_on", "ends_on", "place_points", "participation_points", "best_of",
    "tie_order",
)  # fmt: skip


@write_service
def season_update(*, season_id: int, by: AbstractBaseUser, **changes: Any) -> Season:
    """Change a season's name, days or scoring (its club's organisers and staff); its
    standings are computed again at once."""
    season = Season.objects.select_related("club").filter(pk=season_id).first()
    if season is None:
        raise NotFoundError("no such season", extra={"reason": "season_not_found"})
    club = club_get_for_manage(club_id=season.club_id, user=by)
    unknown = sorted(set(changes) - set(_SEASON_FIELDS))
    if unknown:
        raise ValidationError(
            gettext_noop("unknown season fields: %(names)s"), params={"names": ", ".join(unknown)}
        )
    for name, value in changes.items():
        setattr(season, name, list(value) if isinstance(value, list | tuple) else value)
    season.name = season.name.strip()
    if not season.name:
        raise ValidationError(_SEASON_NAME, extra={"fields": {"name": [_SEASON_NAME]}})
    if season.ends_on < season.starts_on:
        raise ValidationError(_SEASON_ORDER, extra={"fields": {"ends_on": [_SEASON_ORDER]}})
    season.tie_order = list(season.tie_order or Season.TIE_ORDER)
    season.save()
    projection.club_lock(club_id=club.pk)
    season_refresh_in_tx(season=season, zone=ZoneInfo(club.time_zone or "UTC"))
    return season


@write_service
def player_page_visibility_set(*, player_id: int, by: AbstractBaseUser, visibility: str) -> None:
    """A player keeps their page to their clubs (members and organisers) or opens it to
    everyone. Only the player themselves (or staff)."""
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise NotFoundError("no such player", extra={"reason": "player_not_found"})
    if not (by.is_staff or (player.user_id is not None and player.user_id == by.pk)):
        raise PermissionDeniedError("only the player may choose who sees their page")
    if visibility not in Player.PageVisibility.values:
        raise ValidationError(_VISIBILITY, extra={"fields": {"visibility": [_VISIBILITY]}})
    Player.objects.filter(pk=player.pk).update(page_visibility=visibility)
