"""Byes: who gets one in a Swiss, what it scores, how the tiebreaks count it."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.pairing.helpers import fewest_rematches
from tournaments.pairing import Result, SwissPlayer, standings, swiss_pair
from tournaments.pairing.standings import BYE_BUCHHOLZ, BYE_POINTS


def swiss_event(n: int, rounds: int, seed: int, withdraw_rate: float):
    """Yield (field, played, had_bye, pairs) round after round, with random results and
    players withdrawing (and late entries) between rounds."""
    rng = random.Random(seed)
    present = list(range(1, n + 1))
    next_id = n + 1
    score: Counter[int] = Counter()
    played: set[frozenset[int]] = set()
    had_bye: set[int] = set()
    for _ in range(rounds):
        if rng.random() < withdraw_rate and len(present) > 2:
            present.remove(rng.choice(present))
        if rng.random() < withdraw_rate / 2:
            present.append(next_id)
            next_id += 1
        order = sorted(present, key=lambda p: (-score[p], p))
        field = [SwissPlayer(id=p, score=score[p], rank=r) for r, p in enumerate(order, 1)]
        pairs = swiss_pair(players=field, played=played, had_bye=had_bye)
        yield field, set(played), set(had_bye), pairs
        for pair in pairs:
            if pair.second is None:
                had_bye.add(pair.first)
                score[pair.first] += 1
            else:
                played.add(frozenset(pair.players))
                score[rng.choice(pair.players)] += 1


@settings(max_examples=120, deadline=None)
@given(
    n=st.integers(2, 41),
    rounds=st.integers(1, 12),
    seed=st.integers(0, 10**6),
    withdraw_rate=st.sampled_from([0.0, 0.3]),
)
def test_never_a_second_bye_while_someone_present_has_had_none(n, rounds, seed, withdraw_rate):
    for field, _, had_bye, pairs in swiss_event(n, rounds, seed, withdraw_rate):
        byes = [p.first for p in pairs if p.second is None]
        assert len(byes) == len(field) % 2
        if byes and byes[0] in had_bye:
            assert all(p.id in had_bye for p in field), "a second bye while avoidable"


@settings(max_examples=120, deadline=None)
@given(
    n=st.integers(3, 11).filter(lambda n: n % 2),
    rounds=st.integers(1, 8),
    seed=st.integers(0, 10**6),
)
def test_the_bye_goes_to_the_lowest_ranked_player_without_one(n, rounds, seed):
    for field, played, had_bye, pairs in swiss_event(n, rounds, seed, 0.0):
        bye = next(p.first for p in pairs if p.second is None)
        lowest_first = [p.id for p in sorted(field, key=lambda p: -p.rank)]
        fresh = [p for p in lowest_first if p not in had_bye] or lowest_first
        ids = [p.id for p in field]
        fewest = fewest_rematches(ids, played, fresh)
        # The lowest fresh player, unless giving them the bye would force an extra rematch
        # (then the next lowest who does not): rematches come first.
        expected = next(c for c in fresh if fewest_rematches(ids, played, [c]) == fewest)
        assert bye == expected
        if fewest_rematches(ids, played, fresh[:1]) == fewest:
            assert bye == fresh[0]


def _old_standings(players, results):
    """Today's behaviour, written out: a bye is a win; Buchholz sums real opponents' wins."""
    wins = Counter(r.winner for r in results if r.winner is not None)
    opponents = {p: [] for p in players}
    for r in results:
        if r.player2 is not None:
            opponents[r.player1].append(r.player2)
            opponents[r.player2].append(r.player1)
    return {p: (wins[p], float(sum(wins[o] for o in opponents[p]))) for p in players}


@settings(max_examples=60, deadline=None)
@given(n=st.integers(3, 25), rounds=st.integers(1, 7), seed=st.integers(0, 10**6))
def test_the_defaults_keep_old_tournaments_standings(n, rounds, seed):
    rng = random.Random(seed)
    results = []
    for number, (_, _, _, pairs) in enumerate(swiss_event(n, rounds, seed, 0.0), 1):
        for pair in pairs:
            winner = pair.first if pair.second is None else rng.choice(pair.players)
            results.append(Result(number, pair.first, pair.second, winner))
    players = sorted({p for r in results for p in (r.player1, r.player2) if p is not None})
    old = _old_standings(players, results)
    for explicit in ({}, {"bye_points": "win", "bye_buchholz": "nothing"}):
        rows = standings(
            players=players, results=results, tiebreaks=["match_wins", "buchholz"], **explicit
        )
        assert {r.player: (r.match_wins, r.buchholz) for r in rows} == old


def test_a_bye_that_scores_nothing():
    results = [Result(1, 1, 2, winner=1), Result(1, 3, None, winner=3)]
    rows = {
        r.player: r for r in standings(players=[1, 2, 3], results=results, bye_points="nothing")
    }
    assert (rows[3].match_wins, rows[3].byes, rows[3].played) == (0, 1, 0)
    assert rows[1].match_wins == 1
    default = {r.player: r for r in standings(players=[1, 2, 3], results=results)}
    assert default[3].match_wins == 1


def test_buchholz_with_a_virtual_opponent_for_the_bye():
    # Round 1: 1 beats 2, 3 beats 4, 5 bye. Round 2: 1 beats 3, 5 beats 4, 2 bye.
    # Round 3: 1 beats 5, 2 beats 4, 3 bye.
    results = [
        Result(1, 1, 2, winner=1),
        Result(1, 3, 4, winner=3),
        Result(1, 5, None, winner=5),
        Result(2, 1, 3, winner=1),
        Result(2, 5, 4, winner=5),
        Result(2, 2, None, winner=2),
        Result(3, 1, 5, winner=1),
        Result(3, 2, 4, winner=2),
        Result(3, 3, None, winner=3),
    ]
    players = [1, 2, 3, 4, 5]
    plain = {r.player: r for r in standings(players=players, results=results)}
    fide = {
        r.player: r
        for r in standings(players=players, results=results, bye_buchholz="virtual_opponent")
    }
    # Wins: 1: 3, 2: 2 (one a bye), 3: 2 (one a bye), 4: 0, 5: 2 (one a bye).
    # Player 5's bye in round 1: a virtual opponent with 0 wins before, who lost that round
    # and drew rounds 2 and 3: 0 + 0 + 2 * 0.5 = 1.
    assert plain[5].buchholz == 0 + 3  # met 4 (0 wins) and 1 (3)
    assert fide[5].buchholz == 0 + 3 + 1.0
    # Player 2's bye in round 2: 0 wins before, + 0.5 for round 3.
    assert fide[2].buchholz == plain[2].buchholz + 0.5
    # Player 3's bye in the last round: 1 win before, nothing after.
    assert fide[3].buchholz == plain[3].buchholz + 1.0
    # A bye that scores nothing: the virtual opponent won that round.
    nothing = {
        r.player: r
        for r in standings(
            players=players,
            results=results,
            bye_points="nothing",
            bye_buchholz="virtual_opponent",
        )
    }
    assert nothing[5].match_wins == 1
    assert nothing[5].buchholz == 0 + 3 + (0 + 1 + 1.0)
    # Median Buchholz drops the best and worst, virtual opponents included.
    assert fide[5].median_buchholz == 1.0  # of 0, 3 and 1


def test_unknown_bye_choices_are_refused():
    assert BYE_POINTS[0] == "win" and BYE_BUCHHOLZ[0] == "nothing"
    with pytest.raises(ValueError):
        standings(players=[1], results=[], bye_points="half")
    with pytest.raises(ValueError):
        standings(players=[1], results=[], bye_buchholz="average")
