"""Forbidden pairs: kept apart where any pairing allows, reported where none does."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.pairing.helpers import cheapest_matching
from tournaments.pairing import (
    SwissPlayer,
    bracket_size,
    double_elimination,
    knockout_first_round,
    round_robin_rounds,
)
from tournaments.pairing.forbidden import (
    ForbiddenPairInRoundRobinError,
    knockout_first_round_avoiding,
    swiss_pair_avoiding,
)


def households(rng: random.Random, ids: list[int], how_many: int) -> set[frozenset[int]]:
    """Random groups whose members must not meet (all pairs inside a group), plus a few
    random pairs."""
    pairs: set[frozenset[int]] = set()
    for _ in range(how_many):
        group = rng.sample(ids, k=min(len(ids), rng.randint(2, 5)))
        pairs |= {frozenset((a, b)) for a in group for b in group if a < b}
    for _ in range(rng.randint(0, 3)):
        a, b = rng.sample(ids, k=2)
        pairs.add(frozenset((a, b)))
    return pairs


def board_pairs(pairs) -> list[frozenset[int]]:
    return [frozenset(p.players) for p in pairs if p.second is not None]


@st.composite
def swiss_rounds(draw):
    n = draw(st.integers(2, 11))
    rng = random.Random(draw(st.integers(0, 10**6)))
    ids = list(range(1, n + 1))
    played = {frozenset((a, b)) for a in ids for b in ids if a < b and rng.random() < 0.3}
    scores = {p: rng.randint(0, 3) for p in ids}
    had_bye = {p for p in ids if rng.random() < 0.3}
    forbidden = households(rng, ids, draw(st.integers(0, 3)))
    return ids, played, scores, had_bye, forbidden


@settings(max_examples=250, deadline=None)
@given(swiss_rounds())
def test_swiss_keeps_forbidden_pairs_apart_whenever_any_pairing_does(round_):
    ids, played, scores, had_bye, forbidden = round_
    order = sorted(ids, key=lambda p: (-scores[p], p))
    players = [SwissPlayer(id=p, score=scores[p], rank=r) for r, p in enumerate(order, 1)]
    answer = swiss_pair_avoiding(
        players=players, played=played, had_bye=had_bye, forbidden=forbidden
    )
    seen = sorted(p for pair in answer.pairs for p in pair.players)
    assert seen == ids
    lowest_first = list(reversed(order))
    fresh = [p for p in lowest_first if p not in had_bye] or lowest_first
    byes = [p.first for p in answer.pairs if p.second is None]
    assert len(byes) == len(ids) % 2 and all(b in fresh for b in byes)

    def cost(a, b):
        pair = frozenset((a, b))
        return (int(pair in forbidden), int(pair in played))

    candidates = fresh if len(ids) % 2 else [None]
    best = min(
        cheapest_matching([p for p in ids if p != bye], cost) or (0, 0) for bye in candidates
    )
    fewest_forbidden = best[0]
    made = [p for p in board_pairs(answer.pairs) if p in forbidden]
    assert len(made) == fewest_forbidden
    assert answer.forbidden_unavoidable == (fewest_forbidden > 0)
    assert sorted(map(sorted, answer.forbidden_met)) == sorted(map(sorted, made))
    if best == (0, 0) or not best:
        # A pairing free of forbidden pairs and rematches exists: that is what Swiss makes.
        assert not any(p in played for p in board_pairs(answer.pairs))


@st.composite
def knockout_fields(draw):
    n = draw(st.integers(2, 24))
    rng = random.Random(draw(st.integers(0, 10**6)))
    ids = rng.sample(range(1, 1000), k=n)
    return ids, households(rng, ids, draw(st.integers(0, 3)))


@settings(max_examples=250, deadline=None)
@given(knockout_fields())
def test_the_first_round_of_a_knockout_keeps_forbidden_pairs_apart(field):
    ids, forbidden = field
    standard = knockout_first_round(ids)
    answer = knockout_first_round_avoiding(ids, forbidden)
    assert len(answer.pairs) == bracket_size(len(ids)) // 2
    # Byes stay with the top seeds, in their slots.
    assert [p for p in answer.pairs if p.second is None] == [
        p for p in standard if p.second is None
    ]
    assert [p.second is None for p in answer.pairs] == [p.second is None for p in standard]
    assert sorted(p for pair in answer.pairs for p in pair.players) == sorted(ids)
    seed = {p: s for s, p in enumerate(ids, 1)}
    assert all(seed[p.first] < seed[p.second] for p in answer.pairs if p.second is not None)
    playing = [p for pair in standard if pair.second is not None for p in pair.players]
    fewest = cheapest_matching(playing, lambda a, b: (int(frozenset((a, b)) in forbidden),))
    made = [p for p in board_pairs(answer.pairs) if p in forbidden]
    assert len(made) == (fewest[0] if fewest else 0)
    assert answer.forbidden_unavoidable == bool(made)
    if not any(p in forbidden for p in board_pairs(standard)):
        assert answer.pairs == standard
    # Double elimination makes that first round its W1, and says the same.
    bracket = double_elimination(seeded=ids, results={}, forbidden=forbidden)
    w1 = [m for m in bracket.matches if m.id.startswith("W1-")]
    assert [frozenset(p for p in m.players if p is not None) for m in w1] == [
        frozenset(p.players) for p in answer.pairs
    ]
    assert bracket.forbidden_met == answer.forbidden_met


def test_a_household_is_split_in_the_first_round():
    ids = [1, 2, 3, 4, 5, 6, 7, 8]  # standard: 1-8, 4-5, 2-7, 3-6
    answer = knockout_first_round_avoiding(ids, [{1, 8}])
    assert not answer.forbidden_unavoidable
    assert [p.players for p in answer.pairs] == [(1, 7), (4, 5), (2, 8), (3, 6)]
    # Three of one household in a field of four: one of them must meet another.
    stuck = knockout_first_round_avoiding([1, 2, 3, 4], [{1, 2}, {1, 3}, {2, 3}])
    assert stuck.forbidden_unavoidable and len(stuck.forbidden_met) == 1


def test_round_robin_refuses_forbidden_pairs_by_name():
    with pytest.raises(ForbiddenPairInRoundRobinError) as refused:
        round_robin_rounds([1, 2, 3, 4], forbidden=[{1, 3}, {2, 9}])
    assert refused.value.code == "forbidden_pair_in_round_robin"
    assert refused.value.pairs == (frozenset((1, 3)),)
    # A pair naming someone outside the field does not matter.
    assert round_robin_rounds([1, 2, 3, 4], forbidden=[{2, 9}]) == round_robin_rounds([1, 2, 3, 4])
