"""The typed records inside a match view: each legal action (a union discriminated by
`type`, so that a discard's `card` is required), a knock, a defence, a ruling. They describe
the selectors' dicts for the schema (games/selectors/views.py, the engine's records)."""

from __future__ import annotations

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

CARD_HELP = "A card code: rank (A 2-9 T J Q K) and suit (C D H S), e.g. `7H`."
HAND_KINDS = ["gin", "knock", "undercut", "drawn", "voided", "unfinished"]
RULING_TYPES = [
    "HandVoided", "HandCorrected", "ScoreAdjusted", "MatchForfeited", "PlayerResigned",
    "MatchCancelled",
]  # fmt: skip


def _only(value: str) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=[value])


def _card(help_text: str = CARD_HELP) -> serializers.CharField:
    return serializers.CharField(help_text=help_text)


class PassActionSerializer(serializers.Serializer):
    type = _only("pass")


class DrawActionSerializer(serializers.Serializer):
    type = _only("draw")
    source = serializers.ChoiceField(choices=["stock", "discard"])


class DiscardActionSerializer(serializers.Serializer):
    type = _only("discard")
    card = _card()


class KnockActionSerializer(serializers.Serializer):
    type = _only("knock")
    card = _card(help_text="The card discarded face down to knock. " + CARD_HELP)


def legal_action_serializer() -> PolymorphicProxySerializer:
    """One body to send to `/actions/` as it is: its `type` tells which fields it has."""
    return PolymorphicProxySerializer(
        component_name="LegalAction",
        serializers={
            "pass": PassActionSerializer,
            "draw": DrawActionSerializer,
            "discard": DiscardActionSerializer,
            "knock": KnockActionSerializer,
        },
        resource_type_field_name="type",
        many=True,
    )


class _Seated(serializers.Serializer):
    seat = serializers.IntegerField(help_text="The seat (0/1).")
    player = serializers.IntegerField(help_text="The seat's player (id).")


class KnockRecordSerializer(_Seated):
    """The knock being scored (or scored): the knocker's melds and deadwood."""

    discard = serializers.CharField(required=False, help_text="The card discarded to knock.")
    melds = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    deadwood = serializers.ListField(child=serializers.CharField())
    deadwood_value = serializers.IntegerField()
    gin = serializers.BooleanField()


class DefenceRecordSerializer(_Seated):
    """The defender's melds, the cards laid off on the knocker's melds, and deadwood."""

    melds = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    layoffs = serializers.ListField(
        child=serializers.ListField(),
        help_text="Each `[card, index]`: a card laid off on the knocker's meld at `index`.",
    )
    deadwood = serializers.ListField(child=serializers.CharField())
    deadwood_value = serializers.IntegerField()


class RulingRecordSerializer(serializers.Serializer):
    """A ruling in the match: its event's `type` and data, players by id."""

    type = serializers.ChoiceField(choices=RULING_TYPES)
    reason = serializers.CharField(required=False)
    by = serializers.CharField(required=False, help_text="Who ruled.")
    seat = serializers.IntegerField(required=False, help_text="ScoreAdjusted, PlayerResigned.")
    player = serializers.IntegerField(required=False, help_text="The seat's player (id).")
    winner = serializers.IntegerField(required=False, help_text="MatchForfeited: the winner (id).")
    hand_number = serializers.IntegerField(required=False)
    game = serializers.IntegerField(required=False)
    points = serializers.IntegerField(required=False)
    after_hands = serializers.IntegerField(required=False)
    before = serializers.DictField(required=False, help_text="HandCorrected: the entry replaced.")
    after = serializers.DictField(required=False, help_text="HandCorrected: the new entry.")
