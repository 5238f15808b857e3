"""Scoresheet mode: hands played with physical cards, recorded and scored by the engine."""

import pytest

import eventstore
from core.errors import PermissionDeniedError, ValidationError
from demo.bots import match_play_bots_batched
from games.engine.errors import IllegalActionError
from games.hand_entries import HandEntry
from games.models import Match
from games.services import match_create, match_record_hand
from tests.factories import BotPlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(alice, bob, organiser):
    return match_create(player1=alice, player2=bob, mode="table", organisers=[organiser])


def test_recording_scores_like_the_rules(table, alice, bob, organiser):
    # RULES 8 worked example: Bob 10, Alexandra 18, Bob 30, Bob 4.
    for knocker, kd, dd in ((bob, 2, 12), (alice, 0, 0), (bob, 5, 35), (bob, 6, 10)):
        match_record_hand(
            match_id=table.id,
            by=organiser,
            hand=HandEntry(
                knocker=knocker.pk, gin=kd == 0, knocker_deadwood=kd, defender_deadwood=dd
            ),
        )
    row = Match.objects.get(pk=table.pk)
    scores = [g["scores"] for g in row.scoresheet["games"]]
    # Alice's gin: 0 deadwood against 0 -> 25 (gin bonus), not 18; Bob: 10, 40, 44.
    assert scores == [[25, 44], [0, 34], [0, 4]]
    assert row.hand_number == 4 and row.status == "in_progress"


def test_a_drawn_hand_and_invalid_records(table, alice, organiser):
    match_record_hand(match_id=table.id, by=organiser, hand=HandEntry(drawn=True))
    assert eventstore.load(stream_id=table.stream_id)[-1].type == "HandDrawn"
    with pytest.raises(IllegalActionError) as caught:
        match_record_hand(
            match_id=table.id,
            by=organiser,
            hand=HandEntry(knocker=alice.pk, knocker_deadwood=11, defender_deadwood=20),
        )
    assert caught.value.rule == "6 knocking"
    with pytest.raises(IllegalActionError):
        match_record_hand(
            match_id=table.id,
            by=organiser,
            hand=HandEntry(knocker=alice.pk, gin=True, knocker_deadwood=3, defender_deadwood=20),
        )
    with pytest.raises(ValidationError):
        match_record_hand(
            match_id=table.id, by=organiser, hand=HandEntry(knocker=alice.pk, knocker_deadwood=3)
        )
    with pytest.raises(PermissionDeniedError):
        match_record_hand(match_id=table.id, by=alice.user, hand=HandEntry(drawn=True))
    assert eventstore.stream_version(stream_id=table.stream_id) == 2


def test_online_matches_do_not_record_hands(alice, bob, organiser):
    match = match_create(player1=alice, player2=bob, organisers=[organiser])
    with pytest.raises(ValidationError):
        match_record_hand(match_id=match.id, by=organiser, hand=HandEntry(drawn=True))


@pytest.mark.parametrize("ruleset", [None, {"games": 1, "gin_bonus": 20}])
def test_the_same_hand_results_give_the_same_standings_as_online_play(organiser, ruleset):
    a, b = BotPlayerFactory(), BotPlayerFactory()
    online = match_create(player1=a, player2=b, seed="duplicate", ruleset=ruleset)
    match_play_bots_batched(match=online)
    table = match_create(
        player1=a, player2=b, mode="table", ruleset=ruleset, organisers=[organiser]
    )
    players = {a.pk: a, b.pk: b}
    for hand in online.hands.order_by("hand_number"):
        if hand.kind == "draw":
            match_record_hand(match_id=table.id, by=organiser, hand=HandEntry(drawn=True))
            continue
        match_record_hand(
            match_id=table.id,
            by=organiser,
            hand=HandEntry(
                knocker=players[hand.knocker_id].pk,
                gin=hand.kind == "gin",
                knocker_deadwood=hand.knocker_deadwood,
                defender_deadwood=hand.defender_deadwood,
            ),
        )
    online_row = Match.objects.get(pk=online.pk)
    table_row = Match.objects.get(pk=table.pk)
    assert online_row.status == table_row.status == "finished"
    assert table_row.scoresheet == online_row.scoresheet
    assert table_row.winner_id == online_row.winner_id
    assert (table_row.games_won_p1, table_row.games_won_p2) == (
        online_row.games_won_p1,
        online_row.games_won_p2,
    )
    table_hands = list(table.hands.order_by("hand_number").values_list("kind", "winner", "points"))
    online_hands = list(
        online.hands.order_by("hand_number").values_list("kind", "winner", "points")
    )
    assert table_hands == online_hands
