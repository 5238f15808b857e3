from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.pairing import Pair, round_robin_rounds


@given(n=st.integers(min_value=2, max_value=24))
def test_every_pair_meets_exactly_once(n):
    ids = [10 * i + 3 for i in range(n)]
    rounds = round_robin_rounds(ids)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    meetings = Counter(frozenset(p.players) for r in rounds for p in r if p.second is not None)
    assert set(meetings) == {frozenset(c) for c in combinations(ids, 2)}
    assert set(meetings.values()) == {1}


@given(n=st.integers(min_value=2, max_value=24))
def test_everyone_plays_once_per_round_with_one_bye_when_odd(n):
    ids = list(range(1, n + 1))
    byes = Counter()
    for boards in round_robin_rounds(ids):
        assert sorted(p for pair in boards for p in pair.players) == ids
        round_byes = [pair.first for pair in boards if pair.second is None]
        assert len(round_byes) == n % 2
        byes.update(round_byes)
    assert set(byes.values()) <= {1}
    assert len(byes) == (n if n % 2 else 0)


@given(n=st.integers(min_value=2, max_value=24))
def test_each_player_deals_first_in_about_half_their_matches(n):
    ids = list(range(1, n + 1))
    first, matches = Counter(), Counter()
    for boards in round_robin_rounds(ids):
        for pair in boards:
            if pair.second is not None:
                first[pair.first] += 1
                matches.update(pair.players)
    for p in ids:
        dealt_second = matches[p] - first[p]
        assert abs(first[p] - dealt_second) <= 1


def test_small_fields_and_bad_input():
    assert round_robin_rounds([]) == []
    assert round_robin_rounds([7]) == [[Pair(7, None)]]
    assert round_robin_rounds([1, 2]) == [[Pair(1, 2)]]
    with pytest.raises(ValueError):
        round_robin_rounds([1, 1, 2])
