"""Glicko-2 (tournaments.domain.glicko2) against Glickman's own example, and its bounds."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.domain.glicko2 import (
    ClubRatings,
    PeriodGame,
    Rating,
    RatingSettings,
    club_rate,
    is_provisional,
    period_apply,
    rate,
    ratings_now,
)


def test_the_papers_example():
    """1500/200/0.06 beats 1400/30, loses to 1550/100 and to 1700/300 (tau 0.5)."""
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30, 0.06), 1.0), (Rating(1550, 100, 0.06), 0.0)]
    games.append((Rating(1700, 300, 0.06), 0.0))
    new = rate(player, games, tau=0.5)
    # The paper rounds its intermediate values (mu' = -0.2069 gives 1464.06; unrounded it
    # is 1464.0507) and gives sigma' to five places, cut (0.059996 is "0.05999").
    assert abs(new.rating - 1464.06) < 0.01
    assert round(new.rd, 2) == 151.52
    assert abs(new.volatility - 0.05999) < 0.00001


def test_the_papers_example_as_a_period():
    """The same through a period: the opponents as they were before it, everyone rated."""
    state = ClubRatings(
        current={
            1: Rating(1500, 200, 0.06),
            2: Rating(1400, 30, 0.06),
            3: Rating(1550, 100, 0.06),
            4: Rating(1700, 300, 0.06),
        }
    )
    games = [PeriodGame(1, 2), PeriodGame(3, 1), PeriodGame(4, 1)]
    entries = {e.before: e for e in period_apply(state, games, RatingSettings(), period=0)}
    one = state.current[1]
    assert abs(one.rating - 1464.06) < 0.01 and round(one.rd, 2) == 151.52
    assert entries[Rating(1500, 200, 0.06)].played == ((2, 1.0), (3, 0.0), (4, 0.0))


def test_a_player_who_misses_periods_only_widens():
    state = ClubRatings()
    s = RatingSettings()
    period_apply(state, [PeriodGame(1, 2)] * 3, s, period=0)
    period_apply(state, [PeriodGame(1, 2)] * 3, s, period=1)
    before = state.current[1]
    period_apply(state, [PeriodGame(2, 3)], s, period=2)  # player 1 misses it
    assert state.current[1] is before  # widened lazily: when needed
    after = ratings_now(state, s)[1]
    assert after.rating == before.rating and after.volatility == before.volatility
    expected = math.sqrt((before.rd / 173.7178) ** 2 + before.volatility**2) * 173.7178
    assert after.rd == min(expected, 350)
    assert after.rd > before.rd
    assert [e.period for e in state.entries if e.before is before] == []
    assert sorted(state.periods.items()) == [(1, 2), (2, 3), (3, 1)]


def test_a_new_player_starts_at_the_clubs_settings():
    s = RatingSettings(initial_rating=1200, initial_rd=300, initial_volatility=0.05)
    state = club_rate([[PeriodGame(1, 2)]], s)
    (first, second) = sorted(state.entries, key=lambda e: e.played)
    assert first.before == Rating(1200, 300, 0.05) == second.before
    assert state.current[1].rating > 1200 > state.current[2].rating


games_strategy = st.lists(
    st.lists(
        st.tuples(st.integers(0, 7), st.integers(0, 7)).filter(lambda p: p[0] != p[1]),
        max_size=12,
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=150, deadline=None)
@given(
    periods=games_strategy,
    rd_min=st.floats(20, 80),
    rd_max=st.floats(150, 400),
    tau=st.floats(0.3, 1.2),
)
def test_deviation_stays_within_bounds_and_provisional_follows_it(periods, rd_min, rd_max, tau):
    s = RatingSettings(initial_rd=min(rd_max, 350), rd_min=rd_min, rd_max=rd_max, tau=tau)
    state = ClubRatings()
    for index, games in enumerate(periods):
        period_apply(state, [PeriodGame(w, lo) for w, lo in games], s, period=index)
        for rating in ratings_now(state, s).values():
            assert rd_min <= rating.rd <= rd_max
            assert math.isfinite(rating.rating) and 0 < rating.volatility < 1
            assert is_provisional(rating, s) == (rating.rd > 110)


@settings(max_examples=60, deadline=None)
@given(periods=games_strategy)
def test_a_period_rates_every_player_once_and_counts_their_matches(periods):
    state = club_rate([[PeriodGame(w, lo) for w, lo in g] for g in periods], RatingSettings())
    players = {p for games in periods for pair in games for p in pair}
    assert set(state.current) == players
    for player in players:
        n = sum(player in pair for games in periods for pair in games)
        assert state.matches[player] == n
        assert state.periods[player] == sum(any(player in p for p in g) for g in periods)


@settings(max_examples=60, deadline=None)
@given(periods=games_strategy, cut=st.integers(0, 12))
def test_applying_the_last_periods_one_by_one_equals_rating_them_all(periods, cut):
    """The incremental path's shape: rate some periods, bring everyone up to date (as the
    stored current ratings are), then apply the rest one by one: the same numbers."""
    games = [[PeriodGame(w, lo) for w, lo in g] for g in periods]
    s = RatingSettings()
    whole = club_rate(games, s)
    cut = min(cut, len(games))
    first = club_rate(games[:cut], s)
    stored = dict(ratings_now(first, s))
    state = ClubRatings(current=stored, matches=dict(first.matches), periods=dict(first.periods))
    state.as_of = dict.fromkeys(stored, cut - 1)
    state.last = cut - 1
    for index in range(cut, len(games)):
        period_apply(state, games[index], s, period=index)
        ratings_now(state, s)
    assert state.current == whole.current
    assert state.entries == [e for e in whole.entries if e.period >= cut]


def test_many_games_make_a_rating_established():
    state = club_rate([[PeriodGame(1, 2), PeriodGame(2, 1)] * 5] * 6, RatingSettings())
    assert not is_provisional(state.current[1], RatingSettings())
    assert state.current[1].rd >= 30
