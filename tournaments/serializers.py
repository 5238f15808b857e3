"""Input and output shapes of the tournaments API.

Times are stored in UTC and shown in UTC, ISO 8601 with a `Z`, as everywhere in the API
(the tournament's `time_zone` says how to show them). A time entered without an offset is
read in the tournament's zone, from the serializer context ("zone"), daylight saving
included (zoneinfo); one with an offset is taken as it is.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from rest_framework import serializers

from core.text import free_text
from players.selectors import club_exists
from tournaments.models import Pairing, Registration, Round, Standing, Tournament
from tournaments.pairing import TIEBREAKS
from tournaments.selectors import pairing_overdue

MAX_ROUNDS = 100  # of a Swiss tournament, and so of its round_starts (any format)
MAX_ID = 2**63 - 1  # a database id: bigger numbers are refused before they reach a query


def id_field(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, **kwargs)


def utc_text(value: dt.datetime) -> str:
    """An instant as the API writes it: ISO 8601 in UTC with a `Z` (as DRF writes a
    datetime under TIME_ZONE = "UTC": microseconds only where there are any)."""
    return value.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


class ZonedDateTimeField(serializers.DateTimeField):
    """A datetime read in the zone given by the serializer context when it comes without an
    offset, and written in UTC (`Z`), as every instant of the API."""

    def default_timezone(self) -> dt.tzinfo:
        return self.context.get("zone") or dt.UTC

    def to_internal_value(self, value: Any) -> dt.datetime:
        try:
            return super().to_internal_value(value)
        except OverflowError:
            # A date at the edge of the calendar (0001-01-01 in Tokyo is in year 0 in UTC).
            raise serializers.ValidationError(
                gettext("this date and time is out of range"), code="out_of_range"
            ) from None

    def to_representation(self, value: Any) -> Any:
        if isinstance(value, dt.datetime) and value.tzinfo is not None:
            return utc_text(value)
        return super().to_representation(value)


class TournamentFilterInputSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Tournament.Status.choices, required=False)
    tournament_format = serializers.ChoiceField(
        choices=Tournament.Format.choices, required=False, source="format"
    )
    club = id_field(required=False, source="club_id")


class TournamentCreateInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    club = id_field(required=False, allow_null=True)
    format = serializers.ChoiceField(choices=Tournament.Format.choices)
    ruleset = serializers.DictField(required=False, help_text="RULES.md section 9 keys.")
    rounds = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_ROUNDS, help_text="Swiss only."
    )
    starts_at = ZonedDateTimeField(required=False, allow_null=True)
    round_interval = serializers.DurationField(required=False, allow_null=True)
    round_starts = serializers.ListField(
        child=ZonedDateTimeField(),
        required=False,
        max_length=MAX_ROUNDS,
        help_text="When each round starts, in order; at most one per round.",
    )
    round_duration = serializers.DurationField(required=False, allow_null=True)
    turn_time = serializers.DurationField(required=False, allow_null=True)
    dispute_window = serializers.DurationField(
        required=False,
        allow_null=True,
        help_text="Disputes are opened within this time after a match ends; none: no limit.",
    )
    play_mode = serializers.ChoiceField(choices=Tournament.PlayMode.choices, required=False)
    is_public = serializers.BooleanField(required=False)
    check_in_required = serializers.BooleanField(required=False)
    organisers = serializers.ListField(child=id_field(), required=False)
    time_zone = serializers.CharField(required=False, help_text="IANA zone, e.g. Europe/London.")
    language = serializers.ChoiceField(
        choices=[code for code, _ in settings.LANGUAGES],
        required=False,
        allow_blank=True,
        help_text="The language of its prints and wall screen; absent: its club's (empty: the"
        " club's at the time of reading, else English).",
    )
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=TIEBREAKS), required=False
    )
    bye_points = serializers.ChoiceField(
        choices=["win", "nothing"],
        required=False,
        help_text="What a bye scores: a match win (default) or nothing. Fixed with the "
        "tournament (its standings are rebuilt with it).",
    )
    bye_buchholz = serializers.ChoiceField(
        choices=["nothing", "virtual_opponent"],
        required=False,
        help_text="How Buchholz counts a bye: nothing (default) or FIDE's virtual opponent.",
    )
    bracket_reset = serializers.BooleanField(
        required=False,
        help_text="Double elimination: if the losers' bracket winner wins the grand final, a "
        "second final decides (default true).",
    )
    top_cut = serializers.ChoiceField(
        choices=[4, 8, 16],
        required=False,
        allow_null=True,
        help_text="Swiss only: after `rounds` Swiss rounds the top 4, 8 or 16 play a seeded "
        "knockout (ties at the cut: tiebreaks, club rating, a recorded draw of lots).",
    )
    third_place = serializers.BooleanField(
        required=False, help_text="A top cut's semifinal losers play for third."
    )

    def validate_round_starts(self, value: list[dt.datetime]) -> list[dt.datetime]:
        if any(later <= earlier for earlier, later in zip(value, value[1:], strict=False)):
            raise serializers.ValidationError(
                gettext("the rounds' starts must be in order, each after the one before"),
                code="out_of_order",
            )
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        rounds, starts = attrs.get("rounds"), attrs.get("round_starts") or []
        if attrs.get("format") == Tournament.Format.SWISS and rounds and len(starts) > rounds:
            raise serializers.ValidationError(
                {
                    "round_starts": [
                        gettext("%(starts)s starts for %(rounds)s rounds: one per round")
                        % {"starts": len(starts), "rounds": rounds}
                    ]
                },
                code="too_many",
            )
        return attrs

    def validate_club(self, value: int | None) -> int | None:
        """An unknown club is a value refused (400 on `club`), not a missing resource."""
        if value is not None and not club_exists(club_id=value):
            raise serializers.ValidationError(gettext("No club with this id."), code="unknown")
        return value


class TournamentSettingsInputSerializer(serializers.Serializer):
    """PATCH of a tournament: the settings sent change (one SettingsChanged event); the
    ruleset, format, play mode and check-in rule only before it starts."""

    name = serializers.CharField(max_length=200, required=False)
    is_public = serializers.BooleanField(required=False)
    starts_at = ZonedDateTimeField(required=False, allow_null=True)
    round_interval = serializers.DurationField(required=False, allow_null=True)
    round_duration = serializers.DurationField(required=False, allow_null=True)
    turn_time = serializers.DurationField(required=False, allow_null=True)
    dispute_window = serializers.DurationField(required=False, allow_null=True)
    rounds = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_ROUNDS, source="rounds_planned"
    )
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=TIEBREAKS), required=False
    )
    time_zone = serializers.CharField(required=False, help_text="IANA zone, e.g. Europe/London.")
    language = serializers.ChoiceField(
        choices=[code for code, _ in settings.LANGUAGES],
        required=False,
        allow_blank=True,
        help_text="Prints and the wall screen; empty: the club's, else English.",
    )
    ruleset = serializers.DictField(required=False, help_text="RULES.md section 9 keys.")
    format = serializers.ChoiceField(choices=Tournament.Format.choices, required=False)
    play_mode = serializers.ChoiceField(choices=Tournament.PlayMode.choices, required=False)
    check_in_required = serializers.BooleanField(required=False)
    reason = free_text(required=False, allow_blank=True, default="")
    expected_version = serializers.IntegerField(
        min_value=0,
        required=False,
        help_text="The tournament's `version` you saw: a stale one is 409 version_conflict.",
    )


class TournamentOutputSerializer(serializers.ModelSerializer):
    starts_at = ZonedDateTimeField(allow_null=True)
    round_starts = serializers.SerializerMethodField()
    created_at = ZonedDateTimeField()
    finished_at = ZonedDateTimeField(allow_null=True)
    rounds = serializers.IntegerField(source="rounds_planned", allow_null=True)
    organisers = serializers.SerializerMethodField(
        help_text="The organisers' user ids: shown to the tournament's organisers and staff"
        " only (the context's `show_organisers`); empty for anyone else."
    )

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "club",
            "format",
            "ruleset",
            "rounds",
            "starts_at",
            "round_interval",
            "round_starts",
            "round_duration",
            "turn_time",
            "dispute_window",
            "play_mode",
            "is_public",
            "check_in_required",
            "capacity",
            "organisers",
            "time_zone",
            "language",
            "tiebreaks",
            "status",
            "current_round",
            "version",
            "created_at",
            "finished_at",
        ]

    def get_organisers(self, obj: Tournament) -> list[int]:
        if not self.context.get("show_organisers"):
            return []
        return sorted(user.pk for user in obj.organisers.all())

    def get_round_starts(self, obj: Tournament) -> list[str]:
        return [utc_text(dt.datetime.fromisoformat(s)) for s in obj.round_starts]


class PlayerRefInputSerializer(serializers.Serializer):
    player = id_field(required=False, help_text="Player id; default: the caller's own player.")


class WithdrawInputSerializer(PlayerRefInputSerializer):
    reason = free_text(required=False, allow_blank=True, default="")
    forfeit_current = serializers.BooleanField(
        required=False, default=False, help_text="Organisers: forfeit a match still in play."
    )


class CheckInUndoInputSerializer(PlayerRefInputSerializer):
    reason = free_text(required=False, allow_blank=True, default="")


class RegistrationOutputSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name")
    registered_at = ZonedDateTimeField()
    checked_in_at = ZonedDateTimeField(allow_null=True)
    withdrawn_at = ZonedDateTimeField(allow_null=True)
    waitlist_place = serializers.SerializerMethodField(
        help_text="Waitlisted: the place on the waitlist (1: promoted first); else null."
    )

    class Meta:
        model = Registration
        fields = [
            "player",
            "player_name",
            "status",
            "seed",
            "late",
            "registered_at",
            "checked_in_at",
            "withdrawn_at",
            "no_show",
            "waitlist_place",
        ]

    def get_waitlist_place(self, obj: Registration) -> int | None:
        return waitlist_place(obj)


def waitlist_place(reg: Registration) -> int | None:
    """A waitlisted entry's place on the list (in order of registration), else None."""
    if reg.status != Registration.Status.WAITLISTED:
        return None
    ahead = Registration.objects.filter(
        tournament_id=reg.tournament_id, status=Registration.Status.WAITLISTED
    ).filter(
        models.Q(registered_at__lt=reg.registered_at)
        | models.Q(registered_at=reg.registered_at, pk__lt=reg.pk)
    )
    return ahead.count() + 1


class RoundOutputSerializer(serializers.ModelSerializer):
    scheduled_at = ZonedDateTimeField(allow_null=True)
    paired_at = ZonedDateTimeField(allow_null=True)
    deadline = ZonedDateTimeField(allow_null=True)
    completed_at = ZonedDateTimeField(allow_null=True)
    clock_started_at = ZonedDateTimeField(
        allow_null=True,
        help_text="When the round's time started running (its deadline follows it): when it "
        "was paired or re-paired, or when the director started the clock.",
    )
    clock_started_by_hand = serializers.BooleanField(
        help_text="The director started the clock (POST …/rounds/{n}/clock/)."
    )

    class Meta:
        model = Round
        fields = [
            "number", "status", "scheduled_at", "paired_at", "deadline", "completed_at",
            "clock_started_at", "clock_started_by_hand",
        ]  # fmt: skip


class ReasonInputSerializer(serializers.Serializer):
    reason = free_text(required=False, allow_blank=True, default="")


class RoundStartInputSerializer(ReasonInputSerializer):
    confirm = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Start round 1 although it is scheduled more than an hour from now "
        "(otherwise 409 conflict, reason before_schedule, with its `scheduled_at`).",
    )


class RepairInputSerializer(serializers.Serializer):
    reason = free_text()
    pairs = serializers.ListField(
        child=serializers.ListField(child=id_field(allow_null=True), min_length=2, max_length=2),
        required=False,
        help_text="[[player1, player2], [player, null] (a bye)]; default: paired afresh.",
    )
    expected_version = serializers.IntegerField(
        min_value=0,
        required=False,
        help_text="The tournament's `version` you saw: a stale one is 409 version_conflict "
        "(a second click, another organiser's re-pairing).",
    )
    confirm = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Keep hand-set pairs that repeat an earlier pairing or break a forbidden "
        "pair (otherwise 409 conflict, reason rematch / forbidden_pair).",
    )


class DeadlineInputSerializer(serializers.Serializer):
    deadline = ZonedDateTimeField(allow_null=True)
    reason = free_text()


class RuleInputSerializer(serializers.Serializer):
    table = serializers.IntegerField(min_value=1, max_value=10_000)
    winner = id_field(help_text="Player id of the winner by forfeit.")
    reason = free_text()


class PairingOutputSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number")
    player1_name = serializers.CharField(source="player1.name")
    player2_name = serializers.CharField(source="player2.name", allow_null=True, default=None)
    winner = serializers.IntegerField(source="winner_id", allow_null=True)
    match = serializers.UUIDField(source="match_id", allow_null=True)
    result = serializers.CharField(source="result_reason")
    overdue = serializers.SerializerMethodField(
        help_text="Still unplayed past the round's deadline. Online matches are then forfeited"
        " by the deadline job (the player to move loses); table matches wait for an organiser."
    )

    class Meta:
        model = Pairing
        fields = [
            "round",
            "table",
            "player1",
            "player1_name",
            "player2",
            "player2_name",
            "match",
            "status",
            "winner",
            "games1",
            "games2",
            "points1",
            "points2",
            "result",
            "overdue",
        ]

    def get_overdue(self, pairing: Pairing) -> bool:
        return pairing_overdue(pairing=pairing)


class ResultsTakenOutputSerializer(serializers.Serializer):
    taken = PairingOutputSerializer(
        many=True,
        help_text="The pairings whose result was taken from their finished match now; empty: "
        "nothing was waiting.",
    )


class StandingOutputSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name")
    place = serializers.IntegerField(
        help_text="The place a club reads: players equal on every tiebreak share one (1, 2, "
        '2, 4; shown "=2"). `rank` is the place in the total order (ties broken by player '
        "id), which the pairing and the seeding use."
    )
    shared = serializers.BooleanField(help_text="Whether another player has this place.")

    class Meta:
        model = Standing
        fields = [
            "rank",
            "place",
            "shared",
            "player",
            "player_name",
            "match_wins",
            "played",
            "games_won",
            "points_diff",
            "buchholz",
            "sonneborn_berger",
            "byes",
            "withdrawn",
        ]


class RoundClockOutputSerializer(serializers.Serializer):
    round = serializers.IntegerField(allow_null=True, help_text="None before round 1.")
    status = serializers.CharField(allow_null=True, help_text="paired (in play) or completed.")
    starts_at = ZonedDateTimeField(allow_null=True, help_text="When the round was paired.")
    ends_at = ZonedDateTimeField(allow_null=True, help_text="Its deadline; none: no limit.")
    seconds_left = serializers.IntegerField(
        allow_null=True, help_text="Until the deadline, while the round is in play."
    )
    next_round_at = ZonedDateTimeField(
        allow_null=True, help_text="When the next round is scheduled; none: when this one ends."
    )


class DeciderOutputSerializer(serializers.Serializer):
    """Who decided. Only the tournament's organisers and staff see who it was."""

    role = serializers.ChoiceField(
        choices=["organiser", "player"],
        help_text="An organiser (or staff), or the player acting for themselves.",
    )
    id = serializers.IntegerField(
        required=False, help_text="The user's id; shown to organisers and staff only."
    )
    username = serializers.CharField(
        required=False, help_text="The user's login; shown to organisers and staff only."
    )


_INSTANT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,6})?)?([+-]\d\d:\d\d|Z)")


def instants_in_utc(value: Any) -> Any:
    """`value` with every ISO 8601 instant it holds (a string with an offset) in UTC with a
    `Z`: how the API writes the times inside an event's data (stored as they were
    written, e.g. `+00:00`; the stored event and its hash stay as they are)."""
    if isinstance(value, dict):
        return {k: instants_in_utc(v) for k, v in value.items()}
    if isinstance(value, list):
        return [instants_in_utc(v) for v in value]
    if isinstance(value, str) and _INSTANT.fullmatch(value):
        try:
            return utc_text(dt.datetime.fromisoformat(value.replace("Z", "+00:00")))
        except ValueError:
            return value
    return value


class EventDataField(serializers.DictField):
    def to_representation(self, value: Any) -> Any:
        return instants_in_utc(super().to_representation(value))


class EventOutputSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    type = serializers.CharField()
    data = EventDataField(
        help_text=(
            "The event's own fields. For anyone but organisers and staff, `by` is the role "
            "only (as below) and TournamentCreated's `organisers` is left out. Times in it "
            "are written in UTC with a `Z`, as everywhere in the API."
        )
    )
    by = DeciderOutputSerializer(allow_null=True, help_text="null = the system.")
    reason = serializers.CharField(allow_blank=True)
    recorded_at = ZonedDateTimeField()


def zone_context(tournament: Tournament) -> dict[str, Any]:
    return {"zone": ZoneInfo(tournament.time_zone)}


class HandPairingsInputSerializer(RepairInputSerializer):
    """A round's pairs set by hand (every active player once, at most one bye)."""

    pairs = serializers.ListField(
        child=serializers.ListField(child=id_field(allow_null=True), min_length=2, max_length=2),
        min_length=1,
        max_length=4096,
        help_text="[[player1, player2], [player, null] (a bye)].",
    )


class ForbiddenPairSerializer(serializers.Serializer):
    players = serializers.ListField(child=id_field(), min_length=2, max_length=2)
    reason = free_text(required=False, allow_blank=True, default="", write_only=True)


class ForbiddenPairsOutputSerializer(serializers.Serializer):
    results = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        help_text="The pairs of player ids who must not meet, lower id first.",
    )


class BracketDestinationSerializer(serializers.Serializer):
    match = serializers.CharField(help_text="The match id the player goes to.")
    side = serializers.IntegerField(min_value=0, max_value=1, help_text="0: upper, 1: lower.")


class BracketMatchSerializer(serializers.Serializer):
    id = serializers.CharField(
        help_text='Its slot: "W2-1", "L3-2", "GF1", "GF2" (double elimination), "K1-3" '
        '(a knockout, a top cut), "3P" (third place).'
    )
    bracket = serializers.ChoiceField(
        choices=["W", "L", "GF", "K", "3P"],
        help_text="Winners', losers', grand final; knockout; third place.",
    )
    round = serializers.IntegerField(help_text="Its round within its bracket, from 1.")
    index = serializers.IntegerField(help_text="Its place in the round, top to bottom, from 1.")
    wave = serializers.IntegerField(help_text="The matches of one wave can be played at once.")
    players = serializers.ListField(
        child=serializers.IntegerField(allow_null=True), min_length=2, max_length=2,
        help_text="Player ids by side; null: not known yet, or nobody (see status).",
    )  # fmt: skip
    seeds = serializers.ListField(
        child=serializers.IntegerField(allow_null=True), min_length=2, max_length=2
    )
    status = serializers.ChoiceField(
        choices=["waiting", "ready", "played", "walkover", "bye", "empty", "not_needed"]
    )
    winner = serializers.IntegerField(allow_null=True)
    loser = serializers.IntegerField(allow_null=True)
    winner_to = BracketDestinationSerializer(allow_null=True, help_text="null: the last match.")
    loser_to = BracketDestinationSerializer(allow_null=True, help_text="null: the loser is out.")
    problem = serializers.CharField(
        allow_null=True,
        help_text="null, or why its recorded result was left out (the match is drawn as it "
        'stands without it): "not_a_player", "not_ready", "unknown_match".',
    )


class BracketProblemSerializer(serializers.Serializer):
    match = serializers.CharField(allow_null=True, help_text="The match id (slot).")
    round = serializers.IntegerField(allow_null=True, help_text="The tournament round.")
    table = serializers.IntegerField(allow_null=True)
    code = serializers.CharField(
        help_text='"not_a_player" (its winner did not play it), "not_ready" (the match needs '
        'no play, or its players are not known), "unknown_match", "unreadable" (no bracket '
        "can be drawn: no matches)."
    )


class BracketOutputSerializer(serializers.Serializer):
    started = serializers.BooleanField()
    format = serializers.CharField(
        allow_blank=True,
        help_text='"double_elimination", "knockout" or "top_cut"; "" (no matches): a format '
        "without a bracket, or a top cut before its cut.",
    )
    first_round = serializers.IntegerField(
        allow_null=True, help_text="The tournament round of the bracket's first round."
    )
    matches = BracketMatchSerializer(many=True)
    champion = serializers.IntegerField(allow_null=True)
    places = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="Once over (a double elimination, a knockout): the places, best first, "
        "the players out in one round together; the standings split them by the tiebreaks.",
    )
    problems = BracketProblemSerializer(
        many=True,
        help_text="Recorded results the bracket could not take, left out (the bracket is "
        "answered as far as the results are consistent); [] normally.",
    )
    reset = serializers.BooleanField(required=False, help_text="Double elimination only.")
    wave = serializers.IntegerField(
        required=False, allow_null=True, help_text="Double elimination: the wave in play."
    )
