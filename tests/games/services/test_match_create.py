import pytest

import eventstore
from core.errors import ValidationError
from games.engine.errors import InvalidDeckError, InvalidRulesetError
from games.engine.state import commitment
from games.models import Match
from games.services import match_create, seeded_deck
from tests.games.services.helpers import knock_deck

pytestmark = pytest.mark.django_db


def test_create_starts_the_stream_and_deals_the_first_hand(alice, bob):
    match = match_create(
        player1=alice, player2=bob, first_dealer=alice, ruleset={"knock_limit": 7}, label="R1"
    )
    events = eventstore.load(stream_id=match.stream_id)
    assert match.stream_id == f"match-{match.id}"
    assert [e.type for e in events] == ["MatchStarted", "HandDealt"]
    assert events[0].data["ruleset"]["knock_limit"] == 7  # the ruleset travels with the match
    assert events[0].data["first_dealer"] == 0
    dealt = events[1].data
    assert dealt["hand_number"] == 1 and dealt["dealer"] == 0
    assert dealt["commitment"] == commitment(dealt["deck"], dealt["salt"])
    assert len(dealt["salt"]) == 32
    row = Match.objects.get(pk=match.pk)
    assert (row.version, row.hand_number, row.phase) == (2, 1, "upcard")
    assert row.turn_player_id == bob.pk  # the non-dealer has the upcard option
    assert row.status == "in_progress" and row.label == "R1"
    assert row.created_at == events[0].recorded_at


def test_random_first_dealer_and_decks_differ_between_matches(alice, bob):
    dealers, decks = set(), set()
    for _ in range(12):
        match = match_create(player1=alice, player2=bob)
        dealt = eventstore.load(stream_id=match.stream_id)[1].data
        dealers.add(dealt["dealer"])
        decks.add(tuple(dealt["deck"]))
    assert dealers == {0, 1}
    assert len(decks) == 12


def test_seed_gives_reproducible_decks(alice, bob):
    first = match_create(player1=alice, player2=bob, first_dealer=bob, seed="club-night")
    second = match_create(player1=alice, player2=bob, first_dealer=bob, seed="club-night")
    deck1 = eventstore.load(stream_id=first.stream_id)[1].data["deck"]
    deck2 = eventstore.load(stream_id=second.stream_id)[1].data["deck"]
    assert deck1 == deck2 == seeded_deck(seed="club-night", hand_number=1)
    assert seeded_deck(seed="club-night", hand_number=2) != deck1


def test_explicit_decks_are_dealt_in_order(alice, bob):
    deck = knock_deck()
    match = match_create(player1=alice, player2=bob, first_dealer=alice, decks=[deck])
    assert eventstore.load(stream_id=match.stream_id)[1].data["deck"] == deck


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"ruleset": {"knock_limit": -1}}, InvalidRulesetError),
        ({"ruleset": {"jokers": True}}, InvalidRulesetError),
        ({"decks": [["AS"] * 52]}, InvalidDeckError),
        ({"mode": "postal"}, ValidationError),
        ({"mode": "table", "seed": "x"}, ValidationError),
    ],
)
def test_bad_input_creates_nothing(alice, bob, kwargs, error):
    with pytest.raises(error):
        match_create(player1=alice, player2=bob, **kwargs)
    assert not Match.objects.exists()


def test_a_player_cannot_play_themselves(alice):
    with pytest.raises(ValidationError):
        match_create(player1=alice, player2=alice)


def test_first_dealer_must_play(alice, bob):
    from tests.factories import PlayerFactory

    with pytest.raises(ValidationError):
        match_create(player1=alice, player2=bob, first_dealer=PlayerFactory())
