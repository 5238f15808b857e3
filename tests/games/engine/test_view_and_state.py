"""What each seat may see, and state snapshots."""

import json
import random

from games.engine import legal_actions, state_from_dict, state_to_dict
from games.engine.bot import choose_action
from games.engine.view import full_state, public_view

from .helpers import act, dealt, play_match, random_play, shuffled_deck, started


def _strings(value, skip=("hands",)):
    """Every string in a view, leaving out the finished-hand records."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in skip:
                yield from _strings(item, ())
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item, ())
    elif isinstance(value, str):
        yield value


def _hidden_from(state, seat):
    """Cards `seat` must not see: the stock, and the opponent's cards except those taken
    face up from the discard pile (everyone at the table saw those)."""
    public = {card for _, card in state.picked_up}
    hidden = set(state.stock)
    if seat is None:
        hidden |= set(state.hands[0]) | set(state.hands[1])
    else:
        hidden |= set(state.hands[1 - seat])
    return hidden - public


def test_views_never_show_hidden_cards_during_play():
    rng = random.Random(2)
    state = dealt(started(), shuffled_deck(2))
    checked = 0
    while state.in_play:
        for seat in (0, 1, None):
            view = public_view(state, seat)
            json.dumps(view)
            assert not _hidden_from(state, seat) & set(_strings(view))
            if seat is not None:
                assert view["your_cards"] == list(state.hands[seat])
                assert view["opponent_card_count"] == len(state.hands[1 - seat])
            else:
                assert view["your_cards"] is None and view["legal_actions"] == []
            assert all(r["hand_number"] < state.hand_number for r in view["hands"])
            assert state.salt not in set(_strings(view))
            checked += 1
        seat = state.turn
        state, _ = act(state, seat, **rng.choice(legal_actions(state, seat)))
    assert checked > 20


def test_view_keys_and_turn_information():
    state = dealt(started(first_dealer=0), shuffled_deck(4))
    view = public_view(state, 1)
    assert set(view) == {
        "status",
        "mode",
        "phase",
        "ruleset",
        "hand_number",
        "dealer",
        "turn",
        "seat",
        "your_cards",
        "card_counts",
        "opponent_card_count",
        "discard_pile",
        "upcard",
        "stock_count",
        "must_draw_stock",
        "picked_up",
        "legal_actions",
        "needs_deal",
        "commitment",
        "hands",
        "rulings",
        "scoresheet",
        "winner",
        "finish_reason",
    }
    assert view["turn"] == 1 and view["upcard"] == state.discard_pile[-1]
    assert view["stock_count"] == 31 and view["card_counts"] == [10, 10]
    assert view["legal_actions"] == legal_actions(state, 1)
    assert public_view(state, 0)["legal_actions"] == []
    assert view["commitment"] == state.commitment


def test_finished_hand_is_revealed_with_deck_and_salt():
    state = dealt(started(), shuffled_deck(8), salt="pepper")
    deck = list(state.deck)
    state, _ = random_play(state, random.Random(1), knock_chance=1.0)
    view = public_view(state, 0)
    record = view["hands"][-1]
    assert record["deck"] == deck and record["salt"] == "pepper"
    assert len(record["hands"][0]) == len(record["hands"][1]) == 10
    assert view["your_cards"] == [] and view["stock_count"] == 0


def test_state_snapshot_round_trip_at_every_step():
    state, log = play_match(choose_action, seed=13)
    from games.engine import evolve, initial_state

    current = initial_state()
    for event in log:
        current = evolve(current, event)
        data = json.loads(json.dumps(state_to_dict(current)))
        assert state_from_dict(data) == current
    assert current == state


def test_full_state_shows_everything():
    state = dealt(started(), shuffled_deck(6))
    data = full_state(state)
    assert data["hands"] == [list(state.hands[0]), list(state.hands[1])]
    assert data["stock"] == list(state.stock) and data["salt"] == state.salt
