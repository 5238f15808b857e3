"""Team events' input and output serializers (thin: shapes only)."""

from __future__ import annotations

from rest_framework import serializers

from tournaments.teams.domain import TEAM_FORMATS


class TeamEventCreateInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    format = serializers.ChoiceField(choices=TEAM_FORMATS)
    club_id = serializers.IntegerField(required=False, allow_null=True, default=None)
    boards = serializers.IntegerField(min_value=1, max_value=12, default=4)
    rounds = serializers.IntegerField(min_value=1, required=False, allow_null=True, default=None)
    match_points = serializers.ListField(
        child=serializers.IntegerField(min_value=0), min_length=3, max_length=3, default=[2, 1, 0]
    )
    ruleset = serializers.DictField(required=False, default=dict)


class TeamEventOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    format = serializers.CharField()
    club_id = serializers.IntegerField(allow_null=True)
    boards = serializers.IntegerField()
    match_points = serializers.ListField(child=serializers.IntegerField())
    rounds_planned = serializers.IntegerField(allow_null=True)
    current_round = serializers.IntegerField()
    status = serializers.CharField()
    version = serializers.IntegerField()


class TeamRegisterInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    roster = serializers.ListField(child=serializers.IntegerField(), min_length=1, max_length=40)
    captain = serializers.IntegerField(required=False, allow_null=True, default=None)
    club_id = serializers.IntegerField(required=False, allow_null=True, default=None)
    by_rating = serializers.BooleanField(default=True)


class TeamOutputSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    club_id = serializers.IntegerField(allow_null=True)
    captain_id = serializers.IntegerField(allow_null=True)
    roster = serializers.ListField(child=serializers.IntegerField())
    seed = serializers.IntegerField(allow_null=True)


class LineupInputSerializer(serializers.Serializer):
    team = serializers.IntegerField(min_value=1)
    round = serializers.IntegerField(min_value=1)
    players = serializers.ListField(child=serializers.IntegerField(), min_length=1, max_length=12)


class LineupOutputSerializer(serializers.Serializer):
    team = serializers.IntegerField()
    round = serializers.IntegerField()
    players = serializers.ListField(
        child=serializers.IntegerField(), help_text="Player ids, board 1 first."
    )
    set = serializers.BooleanField(
        help_text="True: set by the captain or an organiser; false: the roster's first boards."
    )
    fixed = serializers.BooleanField(help_text="The round is paired: the lineup is final.")
    hidden = serializers.BooleanField(
        help_text="Set for a round not yet paired and not yours to see (you are neither the"
        " team's captain nor an organiser): `players` is empty until the pairing."
    )


class RoundQueryInputSerializer(serializers.Serializer):
    round = serializers.IntegerField(min_value=1, max_value=1000, required=False)


class RoundPairInputSerializer(serializers.Serializer):
    round = serializers.IntegerField(min_value=1)


class RoundPairOutputSerializer(serializers.Serializer):
    paired = serializers.BooleanField()


class TeamStandingOutputSerializer(serializers.Serializer):
    team = serializers.IntegerField()
    rank = serializers.IntegerField()
    match_points = serializers.IntegerField()
    board_points = serializers.IntegerField()
    hollywood_points = serializers.IntegerField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    byes = serializers.IntegerField()


class BoardOutputSerializer(serializers.Serializer):
    board = serializers.IntegerField()
    player1 = serializers.IntegerField(source="player1_id")
    player2 = serializers.IntegerField(source="player2_id")
    dealer = serializers.IntegerField()
    match_id = serializers.UUIDField()
    winner = serializers.IntegerField(allow_null=True)
    points1 = serializers.IntegerField()
    points2 = serializers.IntegerField()
    result = serializers.CharField()


class TeamMatchOutputSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    team1 = serializers.IntegerField()
    team2 = serializers.IntegerField(allow_null=True)
    boards1 = serializers.IntegerField(allow_null=True)
    boards2 = serializers.IntegerField(allow_null=True)
    points1 = serializers.IntegerField(allow_null=True)
    points2 = serializers.IntegerField(allow_null=True)
    outcome1 = serializers.CharField()
    boards = BoardOutputSerializer(many=True, source="board_list")
