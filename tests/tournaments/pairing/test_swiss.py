import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.pairing.helpers import Simulation, fewest_rematches
from tournaments.pairing import (
    Pair,
    SwissPlayer,
    _brackets,
    count_rematches,
    min_rematches,
    swiss_pair,
)


def assert_everyone_once(pairs: list[Pair], ids: list[int]) -> None:
    seen = [p for pair in pairs for p in pair.players]
    assert sorted(seen) == sorted(ids)
    assert sum(pair.second is None for pair in pairs) == len(ids) % 2


@settings(max_examples=60, deadline=None)
@given(n=st.integers(min_value=2, max_value=10), seed=st.integers(0, 10_000))
def test_rematches_are_the_minimum_possible_round_after_round(n, seed):
    sim = Simulation(n, seed)
    # Play beyond the point where rematch-free pairings run out.
    for _ in range(n + 2):
        before = set(sim.played)
        candidates = [p.id for p in sorted(sim.field(), key=lambda p: -p.rank)]
        fresh = [p for p in candidates if p not in sim.had_bye] or candidates
        pairs = sim.pair()
        assert_everyone_once(pairs, sim.ids)
        assert count_rematches(pairs, before) == fewest_rematches(sim.ids, before, fresh)
        sim.play(pairs)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(min_value=3, max_value=15).filter(lambda n: n % 2), seed=st.integers(0, 99))
def test_at_most_one_bye_each(n, seed):
    sim = Simulation(n, seed)
    byes: Counter[int] = Counter()
    for _ in range(n):
        pairs = sim.pair()
        byes.update(p.first for p in pairs if p.second is None)
        sim.play(pairs)
    assert set(byes.values()) == {1}  # n rounds, n players: everyone exactly once


def test_bye_goes_to_the_lowest_ranked_player_without_one():
    players = [SwissPlayer(id=i, score=0, rank=i) for i in range(1, 6)]
    assert swiss_pair(players=players, played=set(), had_bye=set())[-1] == Pair(5, None)
    assert swiss_pair(players=players, played=set(), had_bye={5, 4})[-1] == Pair(3, None)


def test_bye_moves_up_when_the_lowest_would_force_a_rematch():
    players = [SwissPlayer(id=i, score=0, rank=i) for i in range(1, 4)]
    # Without player 3 the others (1, 2) would have to replay each other.
    pairs = swiss_pair(players=players, played={frozenset((1, 2))}, had_bye=set())
    assert pairs[-1] == Pair(2, None)
    assert count_rematches(pairs, {frozenset((1, 2))}) == 0


def test_top_half_meets_bottom_half_in_a_score_group():
    players = [SwissPlayer(id=i, score=1, rank=i) for i in range(1, 9)]
    pairs = swiss_pair(players=players, played=set(), had_bye=set())
    assert {frozenset(p.players) for p in pairs} == {
        frozenset((1, 5)),
        frozenset((2, 6)),
        frozenset((3, 7)),
        frozenset((4, 8)),
    }


def test_a_rematch_in_the_group_is_avoided_by_the_next_candidate():
    players = [SwissPlayer(id=i, score=0, rank=i) for i in range(1, 5)]
    pairs = swiss_pair(players=players, played={frozenset((1, 3))}, had_bye=set())
    assert {frozenset(p.players) for p in pairs} == {frozenset((1, 4)), frozenset((2, 3))}


@settings(max_examples=100, deadline=None)
@given(scores=st.lists(st.integers(0, 4), min_size=2, max_size=40))
def test_score_groups_are_kept_and_only_one_player_floats_per_group(scores):
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    players = [SwissPlayer(id=i, score=scores[i], rank=r) for r, i in enumerate(order, 1)]
    pairs = swiss_pair(players=players, played=set(), had_bye=set())
    assert_everyone_once(pairs, list(range(len(scores))))
    score = dict(enumerate(scores))
    mixed = [p for p in pairs if p.second is not None and score[p.first] != score[p.second]]
    # Each odd group floats exactly one player into the next group; nothing else mixes.
    downfloaters = Counter(max(score[p.first], score[p.second]) for p in mixed)
    assert all(count == 1 for count in downfloaters.values())
    groups = Counter(scores)
    running = 0
    odd_handoffs = 0
    for s in sorted(groups, reverse=True):
        running += groups[s]
        odd_handoffs += running % 2
    byes = len(scores) % 2
    assert len(mixed) == odd_handoffs - byes


def test_large_field_has_no_rematch_and_respects_groups():
    sim = Simulation(120, seed=7)
    for _ in range(7):
        before = set(sim.played)
        pairs = sim.pair()
        assert_everyone_once(pairs, sim.ids)
        assert count_rematches(pairs, before) == 0
        score = sim.score
        mixed = sum(1 for p in pairs if p.second is not None and score[p.first] != score[p.second])
        assert mixed <= len(set(score.values()))
        sim.play(pairs)


def test_min_rematches_reports_the_unavoidable_ones():
    players = [SwissPlayer(id=i, score=0, rank=i) for i in range(1, 5)]
    everyone = {frozenset((a, b)) for a in range(1, 5) for b in range(a + 1, 5)}
    assert min_rematches(players=players, played=everyone, had_bye=set()) == 2
    pairs = swiss_pair(players=players, played=everyone, had_bye=set())
    assert count_rematches(pairs, everyone) == 2


def test_the_player_who_dealt_first_less_deals_first():
    players = [SwissPlayer(id=i, score=0, rank=i) for i in range(1, 5)]
    pairs = swiss_pair(players=players, played=set(), had_bye=set(), dealt_first={1: 3, 3: 1})
    assert Pair(first=3, second=1) in pairs
    assert Pair(first=2, second=4) in pairs or Pair(first=4, second=2) in pairs


def test_dealing_first_stays_balanced_over_an_event():
    sim = Simulation(32, seed=3)
    matches: Counter[int] = Counter()
    for _ in range(10):
        pairs = sim.pair()
        matches.update(p for pair in pairs if pair.second is not None for p in pair.players)
        sim.play(pairs)
    for p in sim.ids:
        dealt_second = matches[p] - sim.dealt_first[p]
        assert abs(sim.dealt_first[p] - dealt_second) <= 2


def test_deterministic_and_independent_of_input_order():
    sim = Simulation(31, seed=11)
    for _ in range(3):
        sim.play(sim.pair())
    field = sim.field()
    first = sim.pair()
    shuffled = list(field)
    random.Random(5).shuffle(shuffled)
    again = swiss_pair(
        players=shuffled,
        played=set(sim.played),
        had_bye=set(sim.had_bye),
        dealt_first=dict(sim.dealt_first),
    )
    assert first == again == sim.pair()


def test_rejects_duplicate_ids_and_handles_empty_fields():
    assert swiss_pair(players=[], played=set(), had_bye=set()) == []
    assert swiss_pair(players=[SwissPlayer(1, 0, 1)], played=set(), had_bye=set()) == [
        Pair(1, None)
    ]
    with pytest.raises(ValueError):
        swiss_pair(
            players=[SwissPlayer(1, 0, 1), SwissPlayer(1, 0, 2)], played=set(), had_bye=set()
        )


@settings(max_examples=30, deadline=None)
@given(n=st.integers(min_value=2, max_value=10), seed=st.integers(0, 10_000))
def test_greedy_fallback_keeps_the_guarantee(n, seed):
    # With no search budget every bracket goes through the greedy pass.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_brackets, "SEARCH_BUDGET_BASE", -1)
        patch.setattr(_brackets, "SEARCH_BUDGET_PER_PLAYER", 0)
        sim = Simulation(n, seed)
        for _ in range(n + 1):
            before = set(sim.played)
            field = sim.field()
            pairs = sim.pair()
            assert_everyone_once(pairs, sim.ids)
            fewest = min_rematches(players=field, played=before, had_bye=sim.had_bye)
            assert count_rematches(pairs, before) == fewest
            sim.play(pairs)


def test_a_long_event_runs_out_of_fresh_opponents_gracefully():
    sim = Simulation(30, seed=1)
    for _ in range(29):
        before = set(sim.played)
        field = sim.field()
        pairs = sim.pair()
        assert_everyone_once(pairs, sim.ids)
        fewest = min_rematches(players=field, played=before, had_bye=sim.had_bye)
        assert count_rematches(pairs, before) == fewest
        sim.play(pairs)


@st.composite
def arbitrary_histories(draw):
    n = draw(st.integers(min_value=1, max_value=10))
    ids = list(range(1, n + 1))
    pairs = [frozenset((a, b)) for a in ids for b in ids if a < b]
    played = {p for p in pairs if draw(st.integers(0, 99)) < 60}
    scores = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    had_bye = {p for p in ids if draw(st.booleans())}
    return ids, played, scores, had_bye


@settings(max_examples=200, deadline=None)
@given(arbitrary_histories())
def test_any_history_gets_the_fewest_rematches_and_a_legal_bye(history):
    ids, played, scores, had_bye = history
    order = sorted(ids, key=lambda p: (-scores[p - 1], p))
    players = [SwissPlayer(id=p, score=scores[p - 1], rank=r) for r, p in enumerate(order, 1)]
    pairs = swiss_pair(players=players, played=played, had_bye=had_bye)
    assert_everyone_once(pairs, ids)
    lowest_first = list(reversed(order))
    fresh = [p for p in lowest_first if p not in had_bye] or lowest_first
    fewest = fewest_rematches(ids, played, fresh)
    assert count_rematches(pairs, played) == fewest
    byes = [p.first for p in pairs if p.second is None]
    if byes:
        # The lowest-ranked fresh player whose bye still allows the fewest rematches.
        assert byes == [next(c for c in fresh if fewest_rematches(ids, played, [c]) == fewest)]
