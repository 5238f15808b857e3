"""Event serialisation and the API action shapes."""

import json

import pytest

from games.engine import (
    Discard,
    Draw,
    IllegalActionError,
    InvalidActionError,
    Knock,
    Pass,
    action_from_dict,
    event_from_dict,
    event_to_dict,
    event_type,
)
from games.engine.bot import choose_action
from games.engine.events import EVENT_TYPES, CardDrawn, HandDealt

from .helpers import play_match


def test_every_event_of_a_match_round_trips_through_json():
    _, log = play_match(choose_action, seed=11)
    seen = set()
    for event in log:
        data = json.loads(json.dumps(event_to_dict(event)))
        assert event_from_dict(event_type(event), data) == event
        seen.add(event_type(event))
    assert {"MatchStarted", "HandDealt", "Knocked", "HandScored", "GameWon"} <= seen


def test_all_event_types_are_registered():
    assert set(EVENT_TYPES) == {
        "MatchStarted",
        "HandDealt",
        "UpcardPassed",
        "CardDrawn",
        "CardDiscarded",
        "Knocked",
        "DefenceLaidOut",
        "HandScored",
        "HandDrawn",
        "HandRecorded",
        "GameWon",
        "MatchFinished",
        "HandVoided",
        "HandCorrected",
        "MatchReopened",
        "ScoreAdjusted",
        "MatchForfeited",
        "PlayerResigned",
        "MatchCancelled",
        "DisputeOpened",
        "DisputeCommented",
        "DisputeResolved",
    }


def test_event_type_is_the_class_name():
    assert event_type(CardDrawn(seat=0, source="stock", card="7H")) == "CardDrawn"


def test_event_from_dict_refuses_unknown_type_and_fields():
    with pytest.raises(IllegalActionError):
        event_from_dict("CardStolen", {})
    with pytest.raises(IllegalActionError):
        event_from_dict("CardDrawn", {"seat": 0, "source": "stock"})


def test_event_from_dict_normalises_tuples():
    event = event_from_dict(
        "HandDealt",
        {"hand_number": 1, "dealer": 0, "deck": ("AC", "2C"), "salt": "s", "commitment": "c"},
    )
    assert event == HandDealt(hand_number=1, dealer=0, deck=["AC", "2C"], salt="s", commitment="c")


@pytest.mark.parametrize(
    ("body", "action"),
    [
        ({"type": "pass"}, Pass(seat=1)),
        ({"type": "draw", "source": "stock"}, Draw(seat=1, source="stock")),
        ({"type": "draw", "source": "discard"}, Draw(seat=1, source="discard")),
        ({"type": "discard", "card": "7H"}, Discard(seat=1, card="7H")),
        ({"type": "knock", "card": "7H"}, Knock(seat=1, card="7H")),
        (
            {"type": "knock", "card": "7H", "melds": [["AC", "2C", "3C"]]},
            Knock(seat=1, card="7H", melds=(("AC", "2C", "3C"),)),
        ),
    ],
)
def test_action_from_dict(body, action):
    assert action_from_dict(1, body) == action


@pytest.mark.parametrize(
    "body",
    [
        None,
        [],
        {},
        {"type": "steal"},
        {"type": "draw"},
        {"type": "draw", "source": "deck"},
        {"type": "discard"},
        {"type": "discard", "card": 7},
        {"type": "pass", "card": "7H"},
        {"type": "knock", "card": "7H", "melds": "AC 2C 3C"},
        {"type": "knock", "card": "7H", "melds": [["AC", 2]]},
    ],
)
def test_bad_action_shapes(body):
    with pytest.raises(InvalidActionError) as info:
        action_from_dict(0, body)
    assert info.value.code == "validation_error"
