"""A knockout or double elimination's bracket."""

from __future__ import annotations

from rest_framework import serializers


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
