import pytest

import eventstore
from core.errors import NotFoundError, PermissionDeniedError, VersionConflictError
from games.engine.errors import IllegalActionError, InvalidCardError, NotYourTurnError
from games.models import Match, MatchHand
from games.projections import match_rows
from games.services import match_act, match_create
from tests.factories import PlayerFactory
from tests.games.services.helpers import knock_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(alice, bob):
    # Alice deals; Bob (non-dealer) holds three runs + KS and may take the QS upcard.
    return match_create(player1=alice, player2=bob, first_dealer=alice, decks=[knock_deck()])


def test_a_legal_action_is_stored_and_projected(match, bob):
    match_act(match_id=match.id, player=bob, action={"type": "pass"}, expected_version=2)
    events = eventstore.load(stream_id=match.stream_id)
    assert events[-1].type == "UpcardPassed"
    assert events[-1].metadata["actor"] == f"player:{bob.pk}"
    row = Match.objects.get(pk=match.pk)
    assert row.version == 3 and row.turn_player_id == match.player1_id


def test_expected_version_must_be_current(match, bob):
    with pytest.raises(VersionConflictError) as caught:
        match_act(match_id=match.id, player=bob, action={"type": "pass"}, expected_version=1)
    assert caught.value.extra["current_version"] == 2
    assert eventstore.stream_version(stream_id=match.stream_id) == 2


@pytest.mark.parametrize(
    ("who", "action", "error", "rule"),
    [
        ("bob", {"type": "draw", "source": "stock"}, IllegalActionError, "4 upcard"),
        ("bob", {"type": "discard", "card": "KS"}, IllegalActionError, "5 a normal turn"),
        ("alice", {"type": "pass"}, NotYourTurnError, "5 a normal turn"),
        ("bob", {"type": "fold"}, IllegalActionError, "actions"),
    ],
)
def test_an_illegal_action_writes_nothing_and_names_the_rule(
    match, alice, bob, who, action, error, rule
):
    before = match_rows(match)
    player = {"alice": alice, "bob": bob}[who]
    with pytest.raises(error) as caught:
        match_act(match_id=match.id, player=player, action=action)
    assert caught.value.rule == rule
    assert eventstore.stream_version(stream_id=match.stream_id) == 2
    assert match_rows(match) == before


def test_discarding_a_card_not_held_is_refused(match, bob):
    match_act(match_id=match.id, player=bob, action={"type": "draw", "source": "discard"})
    with pytest.raises(InvalidCardError):
        match_act(match_id=match.id, player=bob, action={"type": "discard", "card": "AS"})


def test_only_the_players_act(match):
    with pytest.raises(PermissionDeniedError):
        match_act(match_id=match.id, player=PlayerFactory(), action={"type": "pass"})


def test_unknown_match(bob):
    with pytest.raises(NotFoundError):
        match_act(match_id="not-a-uuid", player=bob, action={"type": "pass"})


def test_a_knock_scores_and_the_next_hand_is_dealt_in_the_same_action(match, bob):
    match_act(match_id=match.id, player=bob, action={"type": "draw", "source": "discard"})
    match_act(match_id=match.id, player=bob, action={"type": "knock", "card": "KS"})
    types = [e.type for e in eventstore.load(stream_id=match.stream_id, after_version=3)]
    assert types == ["Knocked", "DefenceLaidOut", "HandScored", "HandDealt"]
    hand = MatchHand.objects.get(match=match)
    assert hand.knocker_id == bob.pk and hand.kind in ("knock", "undercut")
    assert hand.knocker_deadwood == 10
    row = Match.objects.get(pk=match.pk)
    assert row.hand_number == 2 and row.phase == "upcard"
    assert row.version == 7
    winner_points = row.points_p2 if hand.winner_id == bob.pk else row.points_p1
    assert winner_points == hand.points > 0


def test_a_writer_that_lost_the_race_stores_nothing(match, alice, bob):
    from games import repository
    from games.services import match_play_in_tx

    stale = repository.match_load_unlocked(match=Match.objects.get(pk=match.pk))
    match_act(match_id=match.id, player=bob, action={"type": "pass"})
    match_play_in_tx(write=stale, seat=1, action={"type": "draw", "source": "discard"})
    with pytest.raises(VersionConflictError) as caught:
        repository.match_save(stale)
    assert caught.value.extra["current_version"] == 3
    assert [e.type for e in eventstore.load(stream_id=match.stream_id)][-1] == "UpcardPassed"
