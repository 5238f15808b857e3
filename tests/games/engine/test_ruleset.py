"""RULES 9: what a ruleset records; JSON round trip and rejection of bad input."""

import json

import pytest

from games.engine import InvalidRulesetError, Ruleset

DEFAULTS = {
    "knock_limit": 10,
    "gin_bonus": 25,
    "undercut_bonus": 10,
    "game_target": 100,
    "games": 3,
    "end_when_decided": False,
    "discard_restriction": False,
    "game_bonus": 0,
    "box_bonus": 0,
    "shutout_doubles": False,
}


def test_defaults_are_the_rules():
    assert Ruleset().to_dict() == DEFAULTS


def test_json_round_trip():
    ruleset = Ruleset(
        knock_limit=7,
        gin_bonus=20,
        undercut_bonus=25,
        game_target=150,
        games=1,
        end_when_decided=True,
        discard_restriction=True,
        game_bonus=100,
        box_bonus=25,
        shutout_doubles=True,
    )
    assert Ruleset.from_dict(json.loads(json.dumps(ruleset.to_dict()))) == ruleset


def test_missing_keys_take_defaults():
    assert Ruleset.from_dict(None) == Ruleset()
    assert Ruleset.from_dict({}) == Ruleset()
    assert Ruleset.from_dict({"gin_bonus": 20}) == Ruleset(gin_bonus=20)


@pytest.mark.parametrize(
    "data",
    [
        {"knock_limt": 10},
        {"knock_limit": -1},
        {"knock_limit": "10"},
        {"knock_limit": 10.0},
        {"knock_limit": True},
        {"games": 2},
        {"games": 0},
        {"game_target": 0},
        {"gin_bonus": None},
        {"discard_restriction": 1},
        {"end_when_decided": "yes"},
        {"box_bonus": -25},
    ],
)
def test_bad_input_is_rejected(data):
    with pytest.raises(InvalidRulesetError) as info:
        Ruleset.from_dict(data)
    assert info.value.code == "invalid_ruleset" and info.value.rule


@pytest.mark.parametrize("data", [[], "knock_limit=10", 3])
def test_not_an_object(data):
    with pytest.raises(InvalidRulesetError):
        Ruleset.from_dict(data)


def test_direct_construction_is_validated_too():
    with pytest.raises(InvalidRulesetError):
        Ruleset(games=5)
