"""Property tests over random legal play (hypothesis draws seeds; moves come from them)."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    Deal,
    Ruleset,
    action_from_dict,
    legal_actions,
    replay,
    start_match,
    state_from_dict,
    state_to_dict,
)
from games.engine.cards import FULL_DECK
from games.engine.events import DefenceLaidOut, HandDrawn, HandScored, Knocked
from games.engine.melds import min_deadwood

from .helpers import apply, dealt, random_play, started

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)
knock_chances = st.sampled_from([0.0, 0.3, 1.0])


def _deck(seed):
    deck = list(FULL_DECK)
    random.Random(seed).shuffle(deck)
    return deck


def _cards_on_table(state):
    return [*state.hands[0], *state.hands[1], *state.stock, *state.discard_pile]


@SETTINGS
@given(
    deck_seed=seeds,
    play_seed=seeds,
    knock_chance=knock_chances,
    restriction=st.booleans(),
    dealer=st.integers(0, 1),
)
def test_cards_are_conserved_and_the_hand_ends_in_a_knock_or_a_draw(
    deck_seed, play_seed, knock_chance, restriction, dealer
):
    ruleset = Ruleset(discard_restriction=restriction)
    state = dealt(started(ruleset, first_dealer=dealer), _deck(deck_seed))
    rng = random.Random(play_seed)
    ended = []
    while state.in_play:
        cards = _cards_on_table(state)
        assert len(cards) == 52 and set(cards) == set(FULL_DECK)
        assert len(state.stock) >= 2
        seat = state.turn
        options = legal_actions(state, seat)
        assert options, "a seat to move always has a legal action"
        knocks = [a for a in options if a["type"] == "knock"]
        choice = (
            rng.choice(knocks) if knocks and rng.random() < knock_chance else rng.choice(options)
        )
        state, events = apply(state, action_from_dict(seat, choice))
        ended = [e for e in events if isinstance(e, HandScored | HandDrawn)]
    assert len(ended) == 1
    record = state.hand_results[-1]
    final = [*record["hands"][0], *record["hands"][1], *record["stock"], *record["discard_pile"]]
    assert sorted(final) == sorted(FULL_DECK)
    if isinstance(ended[0], HandDrawn):
        assert len(record["stock"]) == 2


@SETTINGS
@given(deck_seed=seeds, play_seed=seeds)
def test_layoffs_never_raise_the_defenders_deadwood(deck_seed, play_seed):
    state = dealt(started(), _deck(deck_seed))
    rng = random.Random(play_seed)
    while state.in_play:
        before = state
        seat = state.turn
        options = legal_actions(state, seat)
        knocks = [a for a in options if a["type"] == "knock"]
        state, events = apply(state, action_from_dict(seat, rng.choice(knocks or options)))
    knocked = [e for e in events if isinstance(e, Knocked)]
    if knocked:
        held = before.hands[1 - knocked[0].seat]
        defence = next(e for e in events if isinstance(e, DefenceLaidOut))
        assert defence.deadwood_value <= min_deadwood(held)
        laid = [card for card, _ in defence.layoffs]
        assert sorted([*laid, *defence.deadwood, *sum(defence.melds, [])]) == sorted(held)
        if knocked[0].gin:
            assert laid == [] and defence.deadwood_value == min_deadwood(held)


@SETTINGS
@given(deck_seed=seeds, play_seed=seeds, knock_chance=knock_chances)
def test_same_deck_and_actions_give_the_same_events_and_state(deck_seed, play_seed, knock_chance):
    runs = []
    for _ in range(2):
        state = started()
        state, dealt_events = apply(state, Deal(deck=_deck(deck_seed), salt="s"))
        state, events = random_play(state, random.Random(play_seed), knock_chance=knock_chance)
        runs.append((state, dealt_events + events))
    assert runs[0] == runs[1]


@SETTINGS
@given(deck_seed=seeds, play_seed=seeds, knock_chance=knock_chances)
def test_replay_equals_the_state_built_step_by_step(deck_seed, play_seed, knock_chance):
    log = start_match(ruleset=Ruleset(), first_dealer=deck_seed % 2)
    state = replay(log)
    rng = random.Random(play_seed)
    for hand in range(3):
        state, events = apply(state, Deal(deck=_deck(deck_seed + hand), salt=str(hand)))
        log += events
        state, events = random_play(state, rng, knock_chance=knock_chance)
        log += events
        assert replay(log) == state
        assert state_from_dict(state_to_dict(state)) == state
        if state.status == "finished":
            break
