"""Making a tournament: load (a new row) → TournamentCreated → save."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext_noop

from core.errors import PermissionDeniedError, ValidationError
from core.transactions import write_service
from games.selectors import ruleset_normalise
from players.models import Club
from players.selectors import user_is_organiser
from tournaments.domain.events import TournamentCreated
from tournaments.domain.state import TEAM_FORMATS
from tournaments.models import Tournament
from tournaments.repository import tournament_new, tournament_save
from tournaments.services._common import field_error
from tournaments.services.validation import (
    aware,
    check_duration,
    check_language,
    check_time_zone,
    validate_tiebreaks,
)
from tournaments.teams.services import team_event_create


def _seconds(value: dt.timedelta | None) -> float | None:
    return value.total_seconds() if value is not None else None


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
    language: str | None = None,
    tiebreaks: Sequence[str] | None = None,
    bye_points: str = "win",
    bye_buchholz: str = "nothing",
    bracket_reset: bool = True,
    top_cut: int | None = None,
    third_place: bool = False,
    boards: int = 4,
    match_points: Sequence[int] = (2, 1, 0),
) -> Tournament:
    """Create a tournament; its creator is one of its organisers. Times are aware (UTC).

    A team format's tournament (team_round_robin, team_swiss) owns a team event made in the
    same transaction (`boards` per team match, `match_points` for a team match won, drawn
    and lost; `rounds`: a team Swiss's, None: enough for a winner): its teams, lineups,
    rounds and results are the team event's (tournaments.teams), and its own stream refuses
    the commands of single players (tournaments.domain.decide)."""
    if not user_is_organiser(user=created_by):
        raise PermissionDeniedError("only organisers may create tournaments")
    if club is not None and not (
        created_by.is_staff or club.organisers.filter(pk=created_by.pk).exists()
    ):
        raise PermissionDeniedError("only the club's organisers may create its tournaments")
    if format not in Tournament.Format.values:
        raise ValidationError(
            gettext_noop("format must be one of %(formats)s"),
            code="format",
            params={"formats": ", ".join(Tournament.Format.values)},
        )
    if play_mode not in Tournament.PlayMode.values:
        raise ValidationError("play_mode must be online or table", code="play_mode")
    if format == Tournament.Format.SWISS and (rounds is None or rounds < 1):
        raise ValidationError("a Swiss tournament needs a number of rounds", code="rounds")
    if not name.strip():
        raise ValidationError("a tournament needs a name", code="name")
    check_time_zone(time_zone)
    # Its prints' and wall screen's language: as asked, else its club's (README, "Languages").
    language = check_language(language) if language is not None else (club.language if club else "")
    if top_cut is not None and (format != Tournament.Format.SWISS or top_cut not in (4, 8, 16)):
        raise field_error("top_cut", "a top cut of 4, 8 or 16 follows a Swiss", "invalid")
    if bye_points not in ("win", "nothing"):
        raise field_error("bye_points", "a bye scores a win or nothing", "invalid")
    if bye_buchholz not in ("nothing", "virtual_opponent"):
        raise field_error("bye_buchholz", "nothing or virtual_opponent", "invalid")
    for label, value in (
        ("round_interval", round_interval),
        ("round_duration", round_duration),
        ("turn_time", turn_time),
        ("dispute_window", dispute_window),
    ):
        check_duration(label, value)
    starts = [aware(s, "round_starts") for s in round_starts]
    start = aware(starts_at, "starts_at") or (starts[0] if starts else None)
    write = tournament_new(name=name.strip(), format=format, created_by=created_by)
    # The organisers are configuration (not the tournament's history), named in the event.
    write.row.organisers.set({created_by.pk, *(u.pk for u in organisers)})
    created = TournamentCreated(
        name=name.strip(),
        club=club.pk if club is not None else None,
        format=format,
        ruleset=ruleset_normalise(ruleset=ruleset),
        rounds=rounds if format == Tournament.Format.SWISS else None,
        play_mode=play_mode,
        time_zone=time_zone,
        language=language,
        tiebreaks=tuple(validate_tiebreaks(tiebreaks)),
        organisers=tuple(sorted(write.row.organisers.values_list("pk", flat=True))),
        is_public=is_public,
        check_in_required=check_in_required,
        starts_at=start.isoformat() if start else None,
        round_starts=tuple(s.astimezone(dt.UTC).isoformat() for s in starts),
        round_interval=_seconds(round_interval),
        round_duration=_seconds(round_duration),
        turn_time=_seconds(turn_time),
        dispute_window=_seconds(dispute_window),
        bye_points=bye_points,
        bye_buchholz=bye_buchholz,
        bracket_reset=bracket_reset,
        top_cut=top_cut,
        third_place=third_place and top_cut is not None,
    )
    tournament = tournament_save(write, [created], by=created_by).row
    if format in TEAM_FORMATS:
        team_event_create.in_tx(
            name=name.strip(),
            format=format,
            created_by=created_by,
            club_id=created.club,
            boards=boards,
            rounds=rounds if format == Tournament.Format.TEAM_SWISS else None,
            match_points=tuple(match_points),  # type: ignore[arg-type]
            ruleset=created.ruleset,
            is_public=is_public,
            tournament_id=tournament.pk,
        )
    return tournament


def tournament_create_by_ids(
    *,
    created_by: AbstractBaseUser,
    club: int | None = None,
    organisers: Sequence[int] = (),
    **fields: Any,
) -> Tournament:
    """`tournament_create` for a caller that names the club and the organisers by id (the
    API): an unknown club is 400 validation_error on `club`; unknown organiser ids are left
    out."""
    club_row = None
    if club is not None:
        club_row = Club.objects.filter(pk=club).first()
        if club_row is None:
            raise field_error(
                "club", gettext_noop("no club with id %(club)s"), "unknown", {"club": club}
            )
    users = list(get_user_model().objects.filter(pk__in=list(organisers)))
    return tournament_create(created_by=created_by, club=club_row, organisers=users, **fields)
