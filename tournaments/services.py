"""Commands on tournaments: creating, registering, checking in and withdrawing.

Rounds, results, rulings and deadlines are in tournaments.rounds (re-exported here). Every
write locks the tournament row, changes the read models and appends the decision to the
stream "tournament-<id>" in one transaction.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Max
from django.utils import timezone

from core.errors import (
    ConflictError,
    NotFoundError,
    PermissionDeniedError,
    ValidationError,
    VersionConflictError,
)
from core.transactions import service_transaction, write_service
from games.selectors import ruleset_normalise
from players.models import Club, Player
from players.selectors import user_is_organiser
from tournaments import stream
from tournaments.domain import (
    SETTINGS_FIXED_AFTER_START,
    SETTINGS_MUTABLE,
    SettingFixedError,
    decide_settings_change,
)
from tournaments.models import Registration, Tournament, validate_time_zone
from tournaments.pairing import TIEBREAK_CHOICES
from tournaments.projections import standings_refresh, tournament_state
from tournaments.rounds import (  # noqa: F401 - the public service API lives here too
    tournament_match_result_record,
    tournament_match_result_withdraw,
    tournament_results_reconcile,
    tournament_results_take,
    tournament_round_pair,
    tournament_round_repair,
    tournament_round_start_next,
    tournament_start,
)
from tournaments.rulings import (  # noqa: F401
    pairing_forfeit,
    tournament_deadlines_enforce,
    tournament_result_rule,
    tournament_round_deadline_move,
)
from tournaments.selectors import pairings_in_play_of, tournament_lock, user_can_organise
from tournaments.stream import system_user  # noqa: F401


def _validate_tiebreaks(tiebreaks: Sequence[str] | None) -> list[str]:
    if not tiebreaks:
        return []
    if len(set(tiebreaks)) != len(tiebreaks) or not set(tiebreaks) <= set(TIEBREAK_CHOICES):
        raise ValidationError(
            f"tiebreaks must be distinct names among {', '.join(TIEBREAK_CHOICES)}",
            code="tiebreaks",
        )
    return list(tiebreaks)


def field_error(field: str, message: str, reason: str) -> ValidationError:
    """The documented `validation_error`: the field named in `fields`, a `reason` saying
    what is wrong with it (as games' `not_a_player`)."""
    return ValidationError(message, extra={"fields": {field: [message]}, "reason": reason})


# The instants a tournament may be scheduled at (README, "Tournaments"): far enough either
# way for any real event, near enough that its round arithmetic stays within datetime.
EARLIEST_INSTANT = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)
LATEST_INSTANT = dt.datetime(2999, 12, 31, 23, 59, 59, tzinfo=dt.UTC)


def _aware(value: dt.datetime | None, name: str) -> dt.datetime | None:
    """`value` checked: aware, and between EARLIEST_INSTANT and LATEST_INSTANT (else 400
    validation_error, `fields.<name>`, reason `out_of_range`)."""
    if value is None:
        return None
    if not isinstance(value, dt.datetime):
        raise field_error(name, f"{name} must be a date and time", "invalid")
    if timezone.is_naive(value):
        raise ValidationError(f"{name} needs a time zone", code="naive_datetime")
    try:
        in_range = EARLIEST_INSTANT <= value <= LATEST_INSTANT
    except OverflowError:
        in_range = False
    if not in_range:
        raise field_error(
            name,
            f"{name} must be between {EARLIEST_INSTANT.year} and {LATEST_INSTANT.year} (UTC)",
            "out_of_range",
        )
    return value


@write_service
def tournament_create(
    *,
    name: str,
    format: str,  # noqa: A002 - the tournament's format, as in the API
    created_by: AbstractBaseUser,
    club: Club | None = None,
    ruleset: dict | None = None,
    rounds: int | None = None,
    starts_at: dt.datetime | None = None,
    round_interval: dt.timedelta | None = None,
    round_starts: Sequence[dt.datetime] = (),
    round_duration: dt.timedelta | None = None,
    turn_time: dt.timedelta | None = None,
    dispute_window: dt.timedelta | None = None,
    play_mode: str = Tournament.PlayMode.ONLINE,
    is_public: bool = True,
    check_in_required: bool = True,
    organisers: Iterable[AbstractBaseUser] = (),
    time_zone: str = "UTC",
    tiebreaks: Sequence[str] | None = None,
) -> Tournament:
    """Create a tournament; its creator is one of its organisers. Times are aware (UTC)."""
    if not user_is_organiser(user=created_by):
        raise PermissionDeniedError("only organisers may create tournaments")
    if club is not None and not (
        created_by.is_staff or club.organisers.filter(pk=created_by.pk).exists()
    ):
        raise PermissionDeniedError("only the club's organisers may create its tournaments")
    if format not in Tournament.Format.values:
        raise ValidationError(f"format must be one of {Tournament.Format.values}", code="format")
    if play_mode not in Tournament.PlayMode.values:
        raise ValidationError("play_mode must be online or table", code="play_mode")
    if format == Tournament.Format.SWISS and (rounds is None or rounds < 1):
        raise ValidationError("a Swiss tournament needs a number of rounds", code="rounds")
    if not name.strip():
        raise ValidationError("a tournament needs a name", code="name")
    _check_time_zone(time_zone)
    for label, value in (
        ("round_interval", round_interval),
        ("round_duration", round_duration),
        ("turn_time", turn_time),
        ("dispute_window", dispute_window),
    ):
        _check_duration(label, value)
    starts = [_aware(s, "round_starts") for s in round_starts]
    tournament = Tournament.objects.create(
        name=name.strip(),
        club=club,
        format=format,
        ruleset=ruleset_normalise(ruleset=ruleset),
        rounds_planned=rounds if format == Tournament.Format.SWISS else None,
        starts_at=_aware(starts_at, "starts_at") or (starts[0] if starts else None),
        round_interval=round_interval,
        round_starts=[s.astimezone(dt.UTC).isoformat() for s in starts],
        round_duration=round_duration,
        turn_time=turn_time,
        dispute_window=dispute_window,
        play_mode=play_mode,
        is_public=is_public,
        check_in_required=check_in_required,
        time_zone=time_zone,
        tiebreaks=_validate_tiebreaks(tiebreaks),
        created_by=created_by,
    )
    tournament.organisers.set({created_by.pk, *(u.pk for u in organisers)})
    stream.stream_append(
        tournament=tournament,
        events=[(stream.TOURNAMENT_CREATED, _created_data(tournament))],
        by=created_by,
    )
    return tournament


@write_service
def tournament_settings_change(
    *,
    tournament_id: int,
    by: AbstractBaseUser,
    changes: dict[str, Any],
    reason: str = "",
    expected_version: int | None = None,
) -> Tournament:
    """Change a tournament's settings: one SettingsChanged event with each setting's old and
    new value, who and why. The ruleset, format, play mode and check-in rule are refused
    once the tournament has started; the schedule, tiebreak order and rounds may change
    (rounds not below those already paired). Nothing changed: no event."""
    tournament = tournament_lock(tournament_id=tournament_id)
    if not user_can_organise(user=by, tournament=tournament):
        raise PermissionDeniedError("only the tournament's organisers may change its settings")
    if expected_version is not None and expected_version != tournament.version:
        raise VersionConflictError(
            f"the tournament is at version {tournament.version}, not {expected_version}",
            extra={"current_version": tournament.version},
        )
    unknown = sorted(set(changes) - set(SETTINGS_MUTABLE) - set(SETTINGS_FIXED_AFTER_START))
    if unknown:
        raise ValidationError(f"unknown settings: {', '.join(unknown)}", code="unknown_setting")
    wanted = {name: _setting_value(tournament, name, raw) for name, raw in changes.items()}
    current = {name: getattr(tournament, name) for name in wanted}
    try:
        changed = decide_settings_change(
            tournament_state(tournament=tournament), current=current, wanted=wanted
        )
    except SettingFixedError as exc:
        raise ConflictError(str(exc), code="setting_fixed") from exc
    for name, change in changed.items():
        setattr(tournament, name, change["new"])
    changed = {
        name: {"old": _jsonable(c["old"]), "new": _jsonable(c["new"])}
        for name, c in changed.items()
    }
    if not changed:
        return tournament
    tournament.save()
    stream.stream_append(
        tournament=tournament,
        events=[(stream.SETTINGS_CHANGED, {"changes": changed})],
        by=by,
        reason=reason,
    )
    if "tiebreaks" in changed:
        standings_refresh(tournament=tournament)
    return tournament


def _setting_value(tournament: Tournament, name: str, raw: Any) -> Any:
    """`raw` checked and in the form the tournament row holds."""
    if name == "ruleset":
        return ruleset_normalise(ruleset=raw)
    if name == "tiebreaks":
        return _validate_tiebreaks(raw)
    if name == "format" and raw not in Tournament.Format.values:
        raise ValidationError(f"format must be one of {Tournament.Format.values}", code="format")
    if name == "play_mode" and raw not in Tournament.PlayMode.values:
        raise ValidationError("play_mode must be online or table", code="play_mode")
    if name == "name":
        if not isinstance(raw, str) or not raw.strip():
            raise ValidationError("a tournament needs a name", code="name")
        return raw.strip()
    if name == "time_zone":
        _check_time_zone(raw)
    if name == "starts_at":
        return _aware(raw, "starts_at")
    if name in ("round_interval", "round_duration", "turn_time", "dispute_window"):
        _check_duration(name, raw)
    if name == "rounds_planned":
        if tournament.format != Tournament.Format.SWISS:
            raise ValidationError("only a Swiss tournament has a number of rounds", code="rounds")
        if (
            not isinstance(raw, int)
            or isinstance(raw, bool)
            or raw < max(1, tournament.current_round)
        ):
            raise ValidationError(
                f"rounds must be at least {max(1, tournament.current_round)} (rounds paired)",
                code="rounds",
            )
    if name in ("is_public", "check_in_required") and not isinstance(raw, bool):
        raise ValidationError(f"{name} is true or false", code=name)
    return raw


MAX_DURATION = dt.timedelta(days=30)


def _duration_ok(value: Any) -> bool:
    return isinstance(value, dt.timedelta) and dt.timedelta(0) < value <= MAX_DURATION


def _check_duration(name: str, value: Any) -> None:
    if value is not None and not _duration_ok(value):
        raise field_error(
            name,
            f"{name} must be a positive duration of at most {MAX_DURATION.days} days",
            "out_of_range",
        )


def _check_time_zone(name: Any) -> None:
    try:
        validate_time_zone(name)
    except Exception as exc:
        raise field_error("time_zone", f"unknown time zone {name!r}", "unknown") from exc


def _jsonable(value: Any) -> Any:
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    if isinstance(value, dt.datetime):
        return value.isoformat()
    return value


def tournament_create_by_ids(
    *,
    created_by: AbstractBaseUser,
    club: int | None = None,
    organisers: Sequence[int] = (),
    **fields: Any,
) -> Tournament:
    """`tournament_create` for a caller that names the club and the organisers by id (the
    API): an unknown club is 404; unknown organiser ids are left out."""
    club_row = None
    if club is not None:
        club_row = Club.objects.filter(pk=club).first()
        if club_row is None:
            raise NotFoundError("no such club")
    users = list(get_user_model().objects.filter(pk__in=list(organisers)))
    return tournament_create(created_by=created_by, club=club_row, organisers=users, **fields)


def _created_data(t: Tournament) -> dict[str, Any]:
    return {
        "name": t.name,
        "club": t.club_id,
        "format": t.format,
        "ruleset": t.ruleset,
        "rounds": t.rounds_planned,
        "play_mode": t.play_mode,
        "time_zone": t.time_zone,
        "tiebreaks": t.tiebreaks,
        "organisers": sorted(t.organisers.values_list("pk", flat=True)),
        "is_public": t.is_public,
        "check_in_required": t.check_in_required,
        "starts_at": t.starts_at.isoformat() if t.starts_at else None,
        "round_starts": t.round_starts,
        "round_interval": _seconds(t.round_interval),
        "round_duration": _seconds(t.round_duration),
        "turn_time": _seconds(t.turn_time),
        "dispute_window": _seconds(t.dispute_window),
    }


def _seconds(value: dt.timedelta | None) -> float | None:
    return value.total_seconds() if value is not None else None


def _may_act_for(*, user: AbstractBaseUser, tournament: Tournament, player: Player) -> None:
    """A player acts for themselves; organisers act for anyone."""
    if player.user_id is not None and player.user_id == user.pk:
        return
    if not user_can_organise(user=user, tournament=tournament):
        raise PermissionDeniedError("only the player or an organiser may do this")


def tournament_register(
    *, tournament_id: int, player: Player, by: AbstractBaseUser
) -> Registration:
    """Enter a player. After the start this is a late entry (Swiss only): the player is paired
    from the next round on, with no score for the rounds already played."""
    with service_transaction():
        tournament = tournament_lock(tournament_id=tournament_id)
        _may_act_for(user=by, tournament=tournament, player=player)
        if not tournament.is_public and not user_can_organise(user=by, tournament=tournament):
            raise PermissionDeniedError("only organisers enter players in a private tournament")
        if tournament.status == Tournament.Status.FINISHED:
            raise ConflictError("the tournament has finished", code="tournament_finished")
        late = tournament.status == Tournament.Status.IN_PROGRESS
        if late and tournament.format != Tournament.Format.SWISS:
            raise ConflictError(
                "late entry is only possible in a Swiss tournament", code="late_entry_closed"
            )
        if Registration.objects.filter(tournament=tournament, player=player).exists():
            raise ConflictError("the player is already registered", code="already_registered")
        seed = None
        if late:
            top = Registration.objects.filter(tournament=tournament).aggregate(m=Max("seed"))
            seed = (top["m"] or 0) + 1
        registration = Registration.objects.create(
            tournament=tournament, player=player, late=late, seed=seed
        )
        stream.stream_append(
            tournament=tournament,
            events=[(stream.PLAYER_REGISTERED, {"player": player.pk, "late": late})],
            by=by,
        )
    return registration


def _registration(tournament: Tournament, player: Player) -> Registration:
    registration = Registration.objects.filter(tournament=tournament, player=player).first()
    if registration is None:
        raise ConflictError("the player is not registered", code="not_registered")
    return registration


def tournament_check_in(
    *, tournament_id: int, player: Player, by: AbstractBaseUser
) -> Registration:
    """Confirm a registered player is present; checking in twice changes nothing."""
    with service_transaction():
        tournament = tournament_lock(tournament_id=tournament_id)
        _may_act_for(user=by, tournament=tournament, player=player)
        if tournament.status == Tournament.Status.FINISHED:
            raise ConflictError("the tournament has finished", code="tournament_finished")
        registration = _registration(tournament, player)
        if registration.status == Registration.Status.WITHDRAWN:
            raise ConflictError("the player has withdrawn", code="withdrawn")
        if registration.status == Registration.Status.CHECKED_IN:
            return registration
        registration.status = Registration.Status.CHECKED_IN
        registration.checked_in_at = timezone.now()
        registration.save(update_fields=["status", "checked_in_at"])
        stream.stream_append(
            tournament=tournament,
            events=[(stream.PLAYER_CHECKED_IN, {"player": player.pk})],
            by=by,
        )
    return registration


def tournament_withdraw(
    *,
    tournament_id: int,
    player: Player,
    by: AbstractBaseUser,
    reason: str = "",
    forfeit_current: bool = False,
) -> Registration:
    """Withdraw a player: they are not paired again. With `forfeit_current` (organisers
    only), a match of theirs still in play is forfeited to the opponent by ruling."""
    with service_transaction():
        tournament = tournament_lock(tournament_id=tournament_id)
        _may_act_for(user=by, tournament=tournament, player=player)
        registration = _registration(tournament, player)
        if registration.status == Registration.Status.WITHDRAWN:
            return registration
        if forfeit_current and not user_can_organise(user=by, tournament=tournament):
            raise PermissionDeniedError("only organisers rule a forfeit")
        registration.status = Registration.Status.WITHDRAWN
        registration.withdrawn_at = timezone.now()
        registration.save(update_fields=["status", "withdrawn_at"])
        stream.stream_append(
            tournament=tournament,
            events=[(stream.PLAYER_WITHDRAWN, {"player": player.pk})],
            by=by,
            reason=reason,
        )
        if forfeit_current:
            for pairing in pairings_in_play_of(tournament=tournament, player=player):
                winner = pairing.player2 if pairing.player1_id == player.pk else pairing.player1
                pairing_forfeit(
                    tournament=tournament,
                    pairing=pairing,
                    winner=winner,
                    by=by,
                    reason=reason or "withdrawn",
                )
        if tournament.status == Tournament.Status.IN_PROGRESS:
            standings_refresh(tournament=tournament)
    return registration
