"""Property: the ratings the incremental path keeps (each tournament applied when it
finishes, each later correction re-rating from its period) equal the ratings rebuilt from
the events alone, after random corrections in random earlier tournaments."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from demo.club_history import club_evening_generate, club_history_correct
from players.models import Club, Player
from tests.tournaments.ratings.helpers import ratings_snapshot
from tournaments.ratings.models import ClubRating, RatingEntry
from tournaments.ratings.rebuild import ratings_rebuild
from tournaments.ratings.selectors import club_rerated
from tournaments.ratings.services import (
    club_rating_settings_change_in_tx,
    club_ratings_apply_in_tx,
)

pytestmark = pytest.mark.django_db

_clubs = itertools.count(1)

# An operation: ("finish",) the next evening; ("correct", i, j) flip the j-th match of the
# i-th finished evening (modulo what exists); ("settings", tau) change the club's tau.
operations = st.lists(
    st.one_of(
        st.just(("finish",)),
        st.tuples(st.just("correct"), st.integers(0, 20), st.integers(0, 20)),
        st.tuples(st.just("settings"), st.sampled_from([0.3, 0.5, 0.9])),
    ),
    min_size=3,
    max_size=9,
)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(ops=operations, seed=st.integers(0, 10_000))
def test_rebuilt_equals_incremental_after_random_corrections(ops, seed):
    rng = random.Random(seed)
    n = next(_clubs)
    club = Club.objects.create(name=f"Club {n}", slug=f"club-{n}")
    players = [Player.objects.create(name=f"P{i}") for i in range(6)]
    evenings = []
    for op in [("finish",), *ops]:
        if op[0] == "finish":
            # Not everyone comes every evening: 4 of the 6, so some miss periods.
            tournament, matches = club_evening_generate(
                club=club, players=rng.sample(players, 4), rounds=2, rng=rng, unrated_every=5
            )
            evenings.append((tournament, matches))
            assert club_ratings_apply_in_tx(tournament_id=tournament.pk) == "applied"
        elif op[0] == "correct":
            tournament, matches = evenings[op[1] % len(evenings)]
            j = op[2] % len(matches)
            matches[j] = club_history_correct(tournament=tournament, match=matches[j])
            club_ratings_apply_in_tx(tournament_id=tournament.pk)
        else:
            club_rating_settings_change_in_tx(club=club, settings={"tau": op[1]}, by=None)
    incremental = ratings_snapshot(club.pk)
    assert incremental["current"] and incremental["entries"]
    ratings_rebuild(club_ids=[club.pk])
    assert ratings_snapshot(club.pk) == incremental


def test_a_correction_rerates_its_period_and_every_later_one_and_says_why():
    rng = random.Random(3)
    club = Club.objects.create(name="Tuesday Club", slug="tuesday")
    players = [Player.objects.create(name=f"P{i}") for i in range(4)]
    evenings = []
    for _ in range(3):
        evening = club_evening_generate(club=club, players=players, rounds=2, rng=rng)
        club_ratings_apply_in_tx(tournament_id=evening[0].pk)
        evenings.append(evening)
    before = {r.player_id: r.rating for r in ClubRating.objects.filter(club=club)}
    first_entries = set(
        RatingEntry.objects.filter(tournament=evenings[0][0]).values_list("rating", flat=True)
    )
    tournament, matches = evenings[1]
    club_history_correct(tournament=tournament, match=matches[0])
    assert club_ratings_apply_in_tx(tournament_id=tournament.pk) == "rerated"
    after = {r.player_id: r.rating for r in ClubRating.objects.filter(club=club)}
    assert after != before
    # The first evening stands; the corrected one and the one after it say why they moved.
    first = RatingEntry.objects.filter(tournament=evenings[0][0])
    assert set(first.values_list("rating", flat=True)) == first_entries
    rerated = club_rerated(club_id=club.pk)
    assert rerated[evenings[0][0].pk] == []
    for tournament_, _ in evenings[1:]:
        assert [r["reason"] for r in rerated[tournament_.pk]] == [
            "result corrected: round 1, table 1"
        ]
        assert rerated[tournament_.pk][0]["at"].endswith("Z")
    # The same job again does nothing (its guard: the stream version it reflects).
    assert club_ratings_apply_in_tx(tournament_id=tournament.pk) == "unchanged"


def test_no_shows_are_not_rated_and_a_missed_evening_only_widens():
    rng = random.Random(5)
    club = Club.objects.create(name="Wednesday Club", slug="wednesday")
    players = [Player.objects.create(name=f"P{i}") for i in range(6)]
    first, matches = club_evening_generate(
        club=club, players=players[:4], rounds=1, rng=rng, unrated_every=2
    )
    club_ratings_apply_in_tx(tournament_id=first.pk)
    rated = {m.player1 for m in matches[:1]} | {m.player2 for m in matches[:1]}
    assert set(ClubRating.objects.filter(club=club).values_list("player_id", flat=True)) == rated
    missing = ClubRating.objects.get(club=club, player_id=matches[0].player1)
    others = [p for p in players if p.pk not in rated][:2]
    second, _ = club_evening_generate(club=club, players=others, rounds=1, rng=rng)
    club_ratings_apply_in_tx(tournament_id=second.pk)
    widened = ClubRating.objects.get(club=club, player_id=missing.player_id)
    assert widened.rating == missing.rating and widened.rd > missing.rd
    assert widened.periods == 1 and widened.matches == 1
    assert not RatingEntry.objects.filter(tournament=second, player_id=missing.player_id)
