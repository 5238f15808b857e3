"""Bot-vs-bot matches played to the end through the service layer."""

import pytest

import eventstore
from demo.bots import match_play_bots, match_play_bots_batched
from games.engine.events import event_from_dict
from games.engine.match import evolve, initial_state
from games.engine.scoresheet import scoresheet_to_dict
from games.engine.state import commitment, state_to_dict
from games.models import Match
from games.projections import match_rows, projections_rebuild
from games.selectors import match_state_at, match_verify, match_view_for
from games.services import match_act, match_create
from tests.factories import BotPlayerFactory

pytestmark = pytest.mark.django_db


def _replayed_states(stream_id):
    """The state after every version, folded from the events alone (no snapshot)."""
    state, states = initial_state(), {}
    for e in eventstore.load(stream_id=stream_id):
        state = evolve(state, event_from_dict(e.type, e.data))
        states[e.version] = state
    return states


def test_a_bot_match_plays_to_the_end_and_live_equals_replayed_at_every_version(bots):
    from games.engine.bot import choose_action

    a, b = bots
    match = match_create(player1=a, player2=b, seed="live-vs-replay")
    players = (a, b)
    while True:
        live, version = match_state_at(match=match)
        if live.status == "finished":
            break
        replayed = _replayed_states(match.stream_id)[version]
        assert state_to_dict(live) == state_to_dict(replayed)
        seat = live.turn
        match_act(
            match_id=match.id,
            player=players[seat],
            action=choose_action(live, seat),
            expected_version=version,
        )
        # The read model after each action (most send only the turn's columns) is what a
        # rebuild from the events gives.
        after, after_version = match_state_at(match=match)
        summary = Match.objects.get(pk=match.pk)
        sheet = scoresheet_to_dict(after.scoresheet)
        assert (summary.version, summary.phase) == (after_version, after.phase)
        assert (summary.scoresheet, summary.status) == (sheet, after.status)
        assert (summary.points_p1, summary.points_p2) == tuple(sheet["totals"])
    before = match_rows(match)
    projections_rebuild()
    assert match_rows(match) == before
    row = Match.objects.get(pk=match.pk)
    assert row.status == "finished" and row.winner_id in (a.pk, b.pk)
    assert row.finish_reason == "games"
    assert max(row.games_won_p1, row.games_won_p2) >= 2
    # Every version, through the snapshot path, equals the plain fold of the events.
    for v, state in _replayed_states(match.stream_id).items():
        assert state_to_dict(match_state_at(match=match, version=v)[0]) == state_to_dict(state)
    assert match_verify(match=match) == {"ok": True, "events": row.version}


def test_match_play_bots_drives_the_services(bots):
    a, b = bots
    match = match_create(player1=a, player2=b, seed="driver", ruleset={"games": 1})
    match = match_play_bots(match_id=match.id)
    assert Match.objects.get(pk=match.pk).status == "finished"


def test_bots_stop_when_a_human_is_to_move(bots, alice):
    match = match_create(player1=alice, player2=bots[0], first_dealer=alice, seed="human")
    match_play_bots(match_id=match.id)  # the bot (non-dealer) has the upcard option first
    row = Match.objects.get(pk=match.pk)
    assert row.turn_player_id == alice.pk


def _finished_hands_commitments(stream_id):
    events = eventstore.load(stream_id=stream_id)
    ended = {e.data["hand_number"] for e in events if e.type in ("HandScored", "HandDrawn")}
    return [e.data for e in events if e.type == "HandDealt" and e.data["hand_number"] in ended]


def test_the_commitment_checks_out_for_every_finished_hand_and_not_for_an_altered_deck(
    bots, organiser
):
    a, b = bots
    match = match_create(player1=a, player2=b, seed="commit", organisers=[organiser])
    match_play_bots_batched(match=match)
    dealt = _finished_hands_commitments(match.stream_id)
    assert len(dealt) >= 3
    # What the organiser is shown for each finished hand checks out too.
    view_hands = match_view_for(match=match, user=organiser)["hands"]
    assert len(view_hands) == len(dealt)
    for hand, d in zip(view_hands, dealt, strict=True):
        assert hand["deck"] == d["deck"]
        assert commitment(hand["deck"], hand["salt"]) == hand["commitment"] == d["commitment"]
    for d in dealt:
        assert commitment(d["deck"], d["salt"]) == d["commitment"]
        altered = list(d["deck"])
        altered[0], altered[1] = altered[1], altered[0]
        assert commitment(altered, d["salt"]) != d["commitment"]
        assert commitment(d["deck"], d["salt"] + "0") != d["commitment"]


@pytest.mark.django_db(transaction=True)
def test_rebuilt_projections_equal_incremental_ones():
    a, b = BotPlayerFactory(), BotPlayerFactory()
    matches = [
        match_create(player1=a, player2=b, seed=f"rebuild-{i}", ruleset=rules)
        for i, rules in enumerate([None, {"games": 1}, {"end_when_decided": True}])
    ]
    for m in matches:
        match_play_bots_batched(match=m)
    unfinished = match_create(player1=b, player2=a, seed="half")
    match_play_bots_batched(match=unfinished, max_actions=40)
    matches.append(unfinished)
    before = [match_rows(m) for m in matches]
    assert before[-1]["status"] == "in_progress" and before[0]["status"] == "finished"
    result = projections_rebuild()
    assert result.matches == 4 and result.events == sum(r["version"] for r in before)
    assert [match_rows(m) for m in matches] == before
    # From the events alone: the read models come back even after being dropped.
    Match.objects.all().delete()
    assert projections_rebuild().created == 4
    assert [match_rows(m) for m in matches] == before
