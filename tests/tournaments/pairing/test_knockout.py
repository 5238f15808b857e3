import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.pairing import bracket_size, knockout_first_round, knockout_next_round, seed_order


@pytest.mark.parametrize(
    ("n", "size"), [(1, 1), (2, 2), (3, 4), (4, 4), (5, 8), (8, 8), (9, 16), (100, 128)]
)
def test_bracket_size_is_the_next_power_of_two(n, size):
    assert bracket_size(n) == size


def test_bracket_size_rejects_empty_fields():
    with pytest.raises(ValueError):
        bracket_size(0)


def test_seed_order_for_eight():
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


@given(k=st.integers(min_value=1, max_value=7))
def test_top_seeds_are_spread_over_the_bracket(k):
    size = 2**k
    order = seed_order(size)
    assert sorted(order) == list(range(1, size + 1))
    # Seeds 1..2^j sit in different blocks of size/2^j slots, for every j.
    for j in range(k + 1):
        block = size // 2**j
        blocks = {order.index(s) // block for s in range(1, 2**j + 1)}
        assert len(blocks) == 2**j
    # First-round opponents sum to size + 1 (1 v n, 2 v n-1, ...).
    assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))


@given(n=st.integers(min_value=2, max_value=70))
def test_byes_go_to_the_top_seeds(n):
    ids = [1000 + s for s in range(1, n + 1)]  # seed s has id 1000 + s
    pairs = knockout_first_round(ids)
    size = bracket_size(n)
    assert len(pairs) == size // 2
    byes = sorted(p.first - 1000 for p in pairs if p.second is None)
    assert byes == list(range(1, size - n + 1))
    assert sorted(p for pair in pairs for p in pair.players) == ids
    for pair in pairs:
        if pair.second is not None:
            assert pair.first < pair.second  # the better seed deals first


@given(n=st.integers(min_value=2, max_value=70))
def test_seeds_one_and_two_only_meet_in_the_final(n):
    ids = list(range(1, n + 1))
    rounds = [knockout_first_round(ids)]
    # Always let the better seed win: the final is then 1 v 2.
    while len(rounds[-1]) > 1:
        rounds.append(knockout_next_round([min(p.players) for p in rounds[-1]]))
    assert len(rounds) == bracket_size(n).bit_length() - 1
    meetings = [{frozenset(p.players) for p in r} for r in rounds]
    assert meetings[-1] == {frozenset((1, 2))}
    assert all(frozenset((1, 2)) not in m for m in meetings[:-1])


def test_next_round_pairs_neighbours():
    pairs = knockout_next_round([5, 9, 2, 7])
    assert [p.players for p in pairs] == [(5, 9), (2, 7)]
    assert knockout_next_round([5]) == []
    with pytest.raises(ValueError):
        knockout_next_round([1, 2, 3])
    with pytest.raises(ValueError):
        knockout_first_round([1])
    with pytest.raises(ValueError):
        knockout_next_round([1, None])
    with pytest.raises(ValueError):
        knockout_next_round([4, 4])
