"""Swiss then knockout: qualifiers by the standings, seeding, one final standing."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.pairing.helpers import Simulation
from tournaments.pairing import knockout_first_round, knockout_next_round
from tournaments.pairing.standings import standings, tied_groups
from tournaments.pairing.top_cut import (
    TOP_CUT_SIZES,
    Place,
    TopCutSizeError,
    TopCutTooLargeError,
    check_top_cut_size,
    swiss_order,
    third_place_pair,
    top_cut_seeds,
    top_cut_standing,
)


@st.composite
def cut_lines(draw):
    """A Swiss field after a few random rounds, ratings (some unrated), lots, withdrawals."""
    n = draw(st.integers(4, 40))
    sim = Simulation(n, draw(st.integers(0, 10**6)))
    for _ in range(draw(st.integers(1, 5))):
        sim.play(sim.pair())
    rng = random.Random(draw(st.integers(0, 10**6)))
    rating = {p: float(rng.choice([1400, 1500, 1600])) for p in sim.ids if rng.random() < 0.8}
    lots = rng.sample(sim.ids, k=rng.randint(0, n))
    withdrawn = set(rng.sample(sim.ids, k=rng.randint(0, n // 3)))
    size = draw(st.sampled_from([s for s in TOP_CUT_SIZES if s <= n]))
    return sim, rating, lots, withdrawn, size


def expected_order(groups, rating, lots):
    """The cut order written out independently: group, rated first, rating, lot, id."""
    group_of = {p: g for g, members in enumerate(groups) for p in members}
    lot = {p: i for i, p in enumerate(lots)}
    return sorted(
        group_of,
        key=lambda p: (group_of[p], p not in rating, -rating.get(p, 0), lot.get(p, 10**9), p),
    )


def play_knockout(seeds, rng):
    rounds = []
    pairs = knockout_first_round(seeds)
    while True:
        matches = []
        for pair in pairs:
            winner = rng.choice(pair.players)
            loser = None if pair.second is None else next(p for p in pair.players if p != winner)
            matches.append((winner, loser))
        rounds.append(matches)
        if len(matches) == 1:
            return rounds
        pairs = knockout_next_round([w for w, _ in matches])


@settings(max_examples=150, deadline=None)
@given(cut_lines(), st.booleans(), st.integers(0, 10**6))
def test_top_cut_seeds_by_the_standings_and_places_the_knockout_first(line, third, seed):
    sim, rating, lots, withdrawn, size = line
    groups = tied_groups(players=sim.ids, results=sim.results)
    order = swiss_order(swiss_groups=groups, rating=rating, lots=lots)
    assert order == expected_order(groups, rating, lots)
    # The groups follow the standings' own order.
    flat = [p for g in groups for p in g]
    assert flat == [row.player for row in standings(players=sim.ids, results=sim.results)]
    eligible = [p for p in order if p not in withdrawn]
    if len(eligible) < 2:
        with pytest.raises(TopCutTooLargeError):
            top_cut_seeds(
                swiss_groups=groups, size=size, rating=rating, lots=lots, withdrawn=withdrawn
            )
        return
    seeds = top_cut_seeds(
        swiss_groups=groups, size=size, rating=rating, lots=lots, withdrawn=withdrawn
    )
    assert seeds == eligible[:size]
    assert not set(seeds) & withdrawn
    # Nobody left out ranks above a qualifier in the Swiss groups.
    group_of = {p: g for g, members in enumerate(groups) for p in members}
    worst = max(group_of[p] for p in seeds)
    assert all(group_of[p] >= worst for p in eligible if p not in seeds)

    rng = random.Random(seed)
    rounds = play_knockout(seeds, rng)
    third_place = None
    if third and len(rounds) >= 2:
        semis = [loser for _, loser in rounds[-2] if loser is not None]
        if len(semis) == 2:
            pair = third_place_pair(semis, seeds)
            winner = rng.choice(pair.players)
            third_place = (winner, next(p for p in pair.players if p != winner))
    table = top_cut_standing(
        order=order, seeds=seeds, knockout_rounds=rounds, third_place=third_place
    )
    players = [p.player for p in table]
    assert sorted(players) == sorted(sim.ids)
    assert set(players[: len(seeds)]) == set(seeds)
    assert players[len(seeds) :] == [p for p in order if p not in seeds]
    assert table[0] == Place(1, rounds[-1][0][0])
    places = [p.place for p in table]
    assert places == sorted(places)
    assert places[len(seeds) :] == list(range(len(seeds) + 1, len(sim.ids) + 1))
    if len(rounds) >= 2:
        semis = [loser for _, loser in rounds[-2] if loser is not None]
        thirds = [p.player for p in table if p.place == 3]
        if third_place is not None:
            assert thirds == [third_place[0]]
            assert Place(4, third_place[1]) in table
        else:
            assert sorted(thirds) == sorted(semis)  # shared third


def test_a_top_cut_larger_than_the_field_is_refused_by_name():
    with pytest.raises(TopCutTooLargeError) as too_large:
        check_top_cut_size(8, 6)
    assert too_large.value.code == "top_cut_too_large"
    with pytest.raises(TopCutSizeError) as odd:
        check_top_cut_size(6, 20)
    assert odd.value.code == "top_cut_size"
    check_top_cut_size(4, 4)
    with pytest.raises(TopCutSizeError):
        top_cut_seeds(swiss_groups=[[1, 2, 3]], size=3)


def test_ties_at_the_cut_line_go_to_rating_then_lots():
    groups = [[1], [2, 3, 4, 5], [6]]
    rating = {2: 1500.0, 3: 1500.0, 4: 1700.0}
    seeds = top_cut_seeds(swiss_groups=groups, size=4, rating=rating, lots=[5, 3, 2])
    # 1 first; then 4 (best rated), then 3 and 2 (equal rating: the lots put 3 before 2);
    # 5, unrated, misses the cut despite being drawn first.
    assert seeds == [1, 4, 3, 2]
    assert top_cut_seeds(swiss_groups=groups, size=4, rating=rating, withdrawn={4}) == [1, 2, 3, 5]
