"""Input and output shapes of the matches API.

Output serializers describe the selectors' dicts for the OpenAPI schema (the views return
those dicts as they are); schemathesis checks every response against them, so a field's type
and nullability here must match what the selectors produce.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.text import free_text
from games.engine.ruleset import MAX_DEADWOOD
from games.engine.state import PHASES
from games.hand_entries import HAND_FIELDS, HandEntry
from games.serializers.records import (
    HAND_KINDS,
    DefenceRecordSerializer,
    KnockRecordSerializer,
    RulingRecordSerializer,
    legal_action_serializer,
)
from players.models import Player

# The values clients branch on, as enums in the schema.
ACTION_TYPES = ["pass", "draw", "discard", "knock", "resign"]
MATCH_STATUSES = ["in_progress", "finished"]
MATCH_MODES = ["online", "table"]
FINISH_REASONS = ["games", "forfeit", "resigned", "cancelled"]


def _choice(choices: list[str], **kwargs: Any) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=choices, **kwargs)


CARD_HELP = "A card code: rank (A 2-9 T J Q K) and suit (C D H S), e.g. `7H`."

# --- the ruleset (RULES.md section 9) -----------------------------------------------------


class RulesetSerializer(serializers.Serializer):
    """Every option is optional (the default in brackets); unknown options are refused. The
    ranges mirror games.engine.ruleset, which checks them again."""

    knock_limit = serializers.IntegerField(
        min_value=0, max_value=98, required=False, help_text="[10]"
    )
    gin_bonus = serializers.IntegerField(
        min_value=0, max_value=1000, required=False, help_text="[25]"
    )
    undercut_bonus = serializers.IntegerField(
        min_value=0, max_value=1000, required=False, help_text="[10]"
    )
    game_target = serializers.IntegerField(
        min_value=1, max_value=100_000, required=False, help_text="[100]"
    )
    games = serializers.ChoiceField(
        choices=[1, 3], required=False, help_text="3 = Hollywood, 1 = plain gin [3]"
    )
    end_when_decided = serializers.BooleanField(required=False, help_text="[false]")
    discard_restriction = serializers.BooleanField(required=False, help_text="[false]")
    game_bonus = serializers.IntegerField(
        min_value=0, max_value=100_000, required=False, help_text="[0]"
    )
    box_bonus = serializers.IntegerField(
        min_value=0, max_value=100_000, required=False, help_text="[0]"
    )
    shutout_doubles = serializers.BooleanField(required=False, help_text="[false]")

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if isinstance(data, dict):
            unknown = sorted(str(k) for k in data if k not in self.fields)
            if unknown:
                raise serializers.ValidationError(
                    gettext("unknown option(s): %(names)s") % {"names": ", ".join(unknown)}
                )
        return super().to_internal_value(data)


# --- inputs -------------------------------------------------------------------------------


def _card_field(**kwargs: Any) -> serializers.CharField:
    return serializers.CharField(max_length=2, min_length=2, help_text=CARD_HELP, **kwargs)


class MatchCreateInputSerializer(serializers.Serializer):
    player1 = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    player2 = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    ruleset = RulesetSerializer(required=False)
    first_dealer = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), required=False, allow_null=True, default=None
    )
    seed = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    decks = serializers.ListField(
        child=serializers.ListField(child=_card_field(), min_length=52, max_length=52),
        required=False,
        max_length=1000,
        help_text="52-card orders, top first, for hands 1, 2, … in turn (RULES 3).",
    )
    mode = serializers.ChoiceField(choices=["online", "table"], default="online")
    label = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs["seed"] = attrs["seed"] or None
        return attrs


class ActionInputSerializer(serializers.Serializer):
    type = _choice(ACTION_TYPES)
    source = serializers.ChoiceField(
        choices=["stock", "discard"], required=False, help_text="For `draw`."
    )
    card = _card_field(required=False)
    melds = serializers.ListField(
        child=serializers.ListField(child=_card_field(), min_length=1, max_length=13),
        required=False,
        max_length=10,
        help_text="For `knock`: the melds stated; omitted, the server chooses (RULES 6).",
    )
    expected_version = serializers.IntegerField(
        min_value=0, required=False, help_text="Refused with 409 if the match has moved on."
    )

    def action(self) -> dict[str, Any]:
        """The action as the engine takes it: only the fields that were sent."""
        return {k: v for k, v in self.validated_data.items() if k != "expected_version"}


class HandRecordInputSerializer(serializers.Serializer):
    drawn = serializers.BooleanField(default=False, help_text="A drawn hand: nothing else.")
    knocker = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), required=False, allow_null=True, default=None
    )
    gin = serializers.BooleanField(default=False)
    knocker_deadwood = serializers.IntegerField(min_value=0, max_value=MAX_DEADWOOD, required=False)
    defender_deadwood = serializers.IntegerField(
        min_value=0, max_value=MAX_DEADWOOD, required=False
    )
    expected_version = serializers.IntegerField(min_value=0, required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """The service's arguments: the `hand` (games.hand_entries) and `expected_version`."""
        if not attrs["drawn"]:
            missing = [
                f
                for f in ("knocker", "knocker_deadwood", "defender_deadwood")
                if attrs.get(f) is None
            ]
            if missing:
                raise serializers.ValidationError(
                    gettext("a scored hand needs %(names)s (or drawn: true)")
                    % {"names": ", ".join(missing)}
                )
        return {
            "hand": HandEntry.from_values(attrs),
            "expected_version": attrs.get("expected_version"),
        }


class RulingInputSerializer(serializers.Serializer):
    type = serializers.ChoiceField(
        choices=["void_hand", "correct_hand", "adjust_score", "forfeit", "resign", "cancel"],
        help_text="cancel: the match ends unplayed, with no winner (a reason is required). "
        "void_hand: the hand in play, or any finished hand (`hand_number`). correct_hand "
        "(table matches): replace hand `hand_number`'s entry (`knocker`, `gin`, "
        "`knocker_deadwood`, `defender_deadwood`, or `drawn: true`); the match is derived "
        "again from the corrected hands, and may finish or go back to play.",
    )
    reason = free_text()
    player = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(),
        required=False,
        allow_null=True,
        default=None,
        help_text="adjust_score: whose score; forfeit: the WINNER; resign: who resigns.",
    )
    game = serializers.IntegerField(min_value=1, max_value=3, required=False, allow_null=True)
    points = serializers.IntegerField(
        min_value=-100_000, max_value=100_000, required=False, allow_null=True
    )
    hand_number = serializers.IntegerField(
        min_value=1, max_value=10_000, required=False, allow_null=True, default=None
    )
    knocker = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(),
        required=False,
        allow_null=True,
        default=None,
        help_text="correct_hand: who knocked (a player id).",
    )
    gin = serializers.BooleanField(required=False, default=False)
    knocker_deadwood = serializers.IntegerField(
        min_value=0, max_value=MAX_DEADWOOD, required=False, allow_null=True, default=None
    )
    defender_deadwood = serializers.IntegerField(
        min_value=0, max_value=MAX_DEADWOOD, required=False, allow_null=True, default=None
    )
    drawn = serializers.BooleanField(required=False, default=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """The service's arguments: a correction's hand as one `hand` (games.hand_entries)."""
        hand = HandEntry.from_values(attrs)
        kept = {k: v for k, v in attrs.items() if k not in HAND_FIELDS}
        return {**kept, "hand": hand}


# --- outputs ------------------------------------------------------------------------------


class MatchPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    seat = serializers.IntegerField()


class HandResultSerializer(serializers.Serializer):
    """A finished hand, or the hand the match ended during (kind `unfinished`). Once it is
    over its players and organisers also see `deck`, `salt`, both `hands`, the `knock`
    (melds, deadwood) and the `defence` (melds, layoffs)."""

    hand_number = serializers.IntegerField()
    kind = serializers.ChoiceField(
        choices=HAND_KINDS,
        help_text="unfinished: the match ended (cancelled, forfeit, resigned) while this hand"
        " was in play",
    )
    reason = serializers.CharField(
        required=False,
        help_text="voided: the ruling's reason; unfinished: how the match ended"
        " (its finish_reason).",
    )
    dealer = serializers.IntegerField(allow_null=True)
    knocker = serializers.IntegerField(allow_null=True, required=False)
    winner = serializers.IntegerField(allow_null=True, required=False)
    points = serializers.IntegerField(required=False)
    knocker_deadwood = serializers.IntegerField(required=False)
    defender_deadwood = serializers.IntegerField(required=False)
    deck = serializers.ListField(child=serializers.CharField(), required=False)
    salt = serializers.CharField(required=False)
    commitment = serializers.CharField(required=False)
    hands = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="Each player's cards at the end of the hand, by player id.",
    )
    knock = KnockRecordSerializer(allow_null=True, required=False)
    defence = DefenceRecordSerializer(allow_null=True, required=False)


class GameScoreSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    scores = serializers.DictField(child=serializers.IntegerField(), help_text="By player id.")
    closed = serializers.BooleanField()
    winner = serializers.IntegerField(allow_null=True)
    bonuses = serializers.DictField(child=serializers.IntegerField())


class ScoresheetSerializer(serializers.Serializer):
    games = GameScoreSerializer(many=True)
    games_won = serializers.DictField(child=serializers.IntegerField())
    totals = serializers.DictField(child=serializers.IntegerField())


class CheckpointSerializer(serializers.Serializer):
    stream_id = serializers.CharField()
    version = serializers.IntegerField()
    hash = serializers.CharField()
    signature = serializers.CharField(help_text="HMAC-SHA256 under the server's chain key.")
    key_id = serializers.CharField(
        required=False,
        help_text="The id of the chain key that signed it (absent: the server's first key).",
    )
    created_at = serializers.DateTimeField()


class MatchViewSerializer(serializers.Serializer):
    """A match as the caller may see it. Fields that name a player (`dealer`, `turn`,
    `winner`, `knocker`) hold player ids; a record's `seat` is the seat (0/1), with the
    player's id beside it as `player`; scores are dicts by player id."""

    id = serializers.UUIDField()
    version = serializers.IntegerField()
    status = _choice(MATCH_STATUSES)
    mode = _choice(MATCH_MODES)
    label = serializers.CharField(allow_blank=True)
    preset_deals = serializers.BooleanField(
        help_text="An organiser chose this match's deals (a seed or decks): never a tournament's."
    )
    practice = serializers.BooleanField(
        help_text="A practice match against the bot (POST /api/practice/): never rated, never a"
        " tournament's."
    )
    ruleset = RulesetSerializer()
    players = MatchPlayerSerializer(many=True)
    hand_number = serializers.IntegerField()
    phase = _choice(list(PHASES))
    dealer = serializers.IntegerField(allow_null=True, help_text="The dealer (player id).")
    turn = serializers.IntegerField(
        allow_null=True, help_text="The player whose move it is (player id)."
    )
    your_seat = serializers.IntegerField(allow_null=True, help_text="The caller's seat (0/1).")
    your_cards = serializers.ListField(
        child=serializers.CharField(), allow_null=True, help_text="Your own cards only."
    )
    opponent_card_count = serializers.IntegerField(allow_null=True)
    discard_pile = serializers.ListField(child=serializers.CharField(), help_text="Bottom first.")
    upcard = serializers.CharField(allow_null=True, required=False)
    stock_count = serializers.IntegerField()
    legal_actions = legal_action_serializer()
    commitment = serializers.CharField(allow_null=True)
    knock = KnockRecordSerializer(
        allow_null=True, required=False, help_text="The knock being scored."
    )
    hands = HandResultSerializer(many=True)
    rulings = RulingRecordSerializer(many=True, required=False)
    scoresheet = ScoresheetSerializer(allow_null=True)
    winner = serializers.IntegerField(allow_null=True)
    finish_reason = _choice(FINISH_REASONS, allow_null=True)
    receipt = CheckpointSerializer(
        allow_null=True,
        help_text="For the match's players and organisers: the stream head at `version`,"
        " signed (a checkpoint). Keep it: `verify_events --receipts` names a later rewrite"
        " of the history that no longer matches it.",
    )


class PracticeMatchViewSerializer(MatchViewSerializer):
    """A new practice match as its player sees it, and where the play page is."""

    play_url = serializers.CharField(help_text="The match's play page: `/play/{id}/`.")


class MatchSummarySerializer(serializers.Serializer):
    """A match in a list (from the read model, no replay)."""

    id = serializers.UUIDField()
    status = _choice(MATCH_STATUSES)
    mode = _choice(MATCH_MODES)
    label = serializers.CharField(allow_blank=True)
    preset_deals = serializers.BooleanField(
        help_text="An organiser chose this match's deals (a seed or decks): never a tournament's."
    )
    practice = serializers.BooleanField(
        help_text="A practice match against the bot (POST /api/practice/): never rated, never a"
        " tournament's."
    )
    player1 = serializers.IntegerField(source="player1_id")
    player2 = serializers.IntegerField(source="player2_id")
    version = serializers.IntegerField()
    hand_number = serializers.IntegerField()
    phase = _choice(list(PHASES))
    turn = serializers.IntegerField(source="turn_player_id", allow_null=True)
    games_won = serializers.SerializerMethodField(
        help_text="Games won so far, by player id (as the match view's `games_won`)."
    )
    points = serializers.SerializerMethodField(
        help_text="Hollywood points so far, by player id (as the match view's `totals`)."
    )
    winner = serializers.IntegerField(source="winner_id", allow_null=True)
    finish_reason = _choice(
        FINISH_REASONS, allow_blank=True, help_text="Blank while the match is in play."
    )
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)

    @extend_schema_field(serializers.DictField(child=serializers.IntegerField()))
    def get_games_won(self, match: Any) -> dict[str, int]:
        return {
            str(match.player1_id): match.games_won_p1,
            str(match.player2_id): match.games_won_p2,
        }

    @extend_schema_field(serializers.DictField(child=serializers.IntegerField()))
    def get_points(self, match: Any) -> dict[str, int]:
        return {str(match.player1_id): match.points_p1, str(match.player2_id): match.points_p2}


class EventSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    type = serializers.CharField()
    data = serializers.DictField(
        help_text="The event's data as stored, with players by id: `dealer`, `first_dealer`,"
        " `knocker` and `winner` are player ids, a `seat` (0/1) has `player` (id) beside it,"
        " `scores` and `bonuses` are dicts by player id. Hidden cards are absent or null"
        " for this caller."
    )
    recorded_at = serializers.DateTimeField()


class EventPageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = EventSerializer(many=True)


class ReplaySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    version = serializers.IntegerField()
    preset_deals = serializers.BooleanField(
        help_text="An organiser chose this match's deals (a seed or decks): never a tournament's."
    )
    state = serializers.DictField(
        help_text="Everything at that version: `hands` and `card_counts` by player id, stock"
        " (top first), discard pile, deck and salt; `dealer`, `turn`, `winner` as player ids;"
        " `scoresheet` as in the match view; `hand_results` as the view's `hands`."
    )


class VerifySerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    events = serializers.IntegerField()
    first_broken_version = serializers.IntegerField(allow_null=True, required=False)
    reason = serializers.CharField(allow_null=True, required=False)
    receipt = CheckpointSerializer(
        required=False,
        help_text="The latest signed checkpoint of the match's stream (once one was taken),"
        " to keep: a later rewrite of the history no longer matches it.",
    )
