"""Hand-set rounds: everyone once, rematches and forbidden pairs refused unless confirmed."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import Pair
from tournaments.pairing.hand_pairings import (
    FORBIDDEN_PAIR,
    REMATCH,
    HandPairingConflictError,
    HandPairingError,
    check_hand_pairings,
)


def random_round(rng: random.Random, field: list[int]) -> list[list[int]]:
    order = rng.sample(field, k=len(field))
    boards = [order[i : i + 2] for i in range(0, len(order) - 1, 2)]
    if len(order) % 2:
        boards.append([order[-1]])
    return boards


@settings(max_examples=200, deadline=None)
@given(n=st.integers(2, 30), seed=st.integers(0, 10**6), confirm=st.booleans())
def test_a_hand_set_round_is_accepted_exactly_when_it_is_sound(n, seed, confirm):
    rng = random.Random(seed)
    field = rng.sample(range(1, 500), k=n)
    pairs = random_round(rng, field)
    played = {frozenset(rng.sample(field, 2)) for _ in range(rng.randint(0, n))}
    forbidden = [set(rng.sample(field, 2)) for _ in range(rng.randint(0, 2))]
    boards = [frozenset(b) for b in pairs if len(b) == 2]
    rematches = [b for b in boards if b in played]
    broken = [b for b in boards if b in [frozenset(f) for f in forbidden]]
    if (rematches or broken) and not confirm:
        with pytest.raises(HandPairingConflictError) as refused:
            check_hand_pairings(field=field, pairs=pairs, played=played, forbidden=forbidden)
        assert refused.value.code == "conflict"
        assert refused.value.reason == (FORBIDDEN_PAIR if broken else REMATCH)
        assert {c.pair for c in refused.value.conflicts} == set(rematches) | set(broken)
    else:
        answer = check_hand_pairings(
            field=field, pairs=pairs, played=played, forbidden=forbidden, confirm=confirm
        )
        assert [p.players for p in answer.pairs] == [tuple(b) for b in pairs]
        assert {c.pair for c in answer.conflicts} == set(rematches) | set(broken)
    # Breaking the round's shape is refused by name, confirmed or not.
    if n >= 3:
        dropped = [b for b in pairs]
        dropped[0] = dropped[0][:1]
        with pytest.raises(HandPairingError) as wrong:
            check_hand_pairings(field=field, pairs=dropped, played=set(), confirm=True)
        assert wrong.value.code in ("byes", "missing")
        doubled = [*pairs, [pairs[0][0]]]
        with pytest.raises(HandPairingError) as twice:
            check_hand_pairings(field=field, pairs=doubled, played=set(), confirm=True)
        assert twice.value.code == "twice"


def test_named_refusals():
    field = [1, 2, 3, 4]
    ok = check_hand_pairings(field=field, pairs=[[2, 1], [3, 4]], played=set())
    assert ok.pairs == [Pair(2, 1), Pair(3, 4)] and ok.conflicts == ()
    cases = {
        "unknown_player": [[1, 9], [3, 4], [2]],
        "twice": [[1, 1], [3, 4], [2]],
        "missing": [[1, 2]],
        "byes": [[1, 2], [3], [4]],
        "shape": [[1, 2, 3], [4]],
    }
    for code, pairs in cases.items():
        with pytest.raises(HandPairingError) as refused:
            check_hand_pairings(field=field, pairs=pairs, played=set())
        assert refused.value.code == code, pairs
    assert check_hand_pairings(field=[1, 2, 3], pairs=[[1, 2], [3, None]], played=set()).pairs[
        -1
    ] == Pair(3, None)
    with pytest.raises(HandPairingConflictError) as both:
        check_hand_pairings(
            field=field, pairs=[[1, 2], [3, 4]], played={frozenset((3, 4))}, forbidden=[{1, 2}]
        )
    assert both.value.reason == FORBIDDEN_PAIR
    assert [c.reason for c in both.value.conflicts] == [FORBIDDEN_PAIR, REMATCH]
