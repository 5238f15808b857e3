"""The plain-body shortcut of the action endpoint accepts only what ActionInputSerializer
accepts, and gives the same validated data."""

from __future__ import annotations

import pytest

from games.fastpath import action_input_plain
from games.serializers import ActionInputSerializer

COMMON = [
    {"type": "pass"},
    {"type": "draw", "source": "stock"},
    {"type": "draw", "source": "discard"},
    {"type": "discard", "card": "7H"},
    {"type": "knock", "card": "KS"},
    {"type": "resign"},
    {"type": "discard", "card": "TD", "expected_version": 12},
    {"expected_version": 0, "card": "AC", "type": "knock"},
    {"type": "discard", "source": "stock", "card": "2C"},  # the engine refuses it, not the input
]
OTHERS = [
    {},
    [],
    "pass",
    {"type": "Pass"},
    {"type": "jump"},
    {"type": None},
    {"type": ["pass"]},
    {"type": "draw", "source": "deck"},
    {"type": "draw", "source": None},
    {"type": "discard", "card": "7h"},
    {"type": "discard", "card": " 7H"},
    {"type": "discard", "card": "XX"},
    {"type": "discard", "card": "7H7"},
    {"type": "discard", "card": 7},
    {"type": "pass", "expected_version": -1},
    {"type": "pass", "expected_version": True},
    {"type": "pass", "expected_version": 1.0},
    {"type": "pass", "expected_version": "3"},
    {"type": "pass", "expected_version": None},
    {"type": "knock", "card": "7H", "melds": [["AC", "2C", "3C"]]},
    {"type": "pass", "extra": 1},
]


@pytest.mark.parametrize("body", COMMON)
def test_a_plain_body_takes_the_shortcut_with_the_serializers_result(body):
    plain = action_input_plain(body)
    serializer = ActionInputSerializer(data=body)
    assert serializer.is_valid(), serializer.errors
    assert plain is not None
    assert list(plain.items()) == list(serializer.validated_data.items())


@pytest.mark.parametrize("body", OTHERS)
def test_anything_else_is_left_to_the_serializer(body):
    assert action_input_plain(body) is None
