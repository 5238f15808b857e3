"""The federation's stored rating list (tournaments.federation.projection): equal to a
re-computation from the events, re-rated when a club's job sees a correction, and rebuilt
from the events to identical rows (verify_projections)."""

from __future__ import annotations

import io
import random

import pytest
from django.core.management import call_command

from demo.club_history import club_evening_generate, club_history_correct
from players.models import Club
from players.services import player_create
from tournaments.federation.models import FederationRating, FederationRatingMonth
from tournaments.federation.ratings import federation_rating_list
from tournaments.federation.rebuild import federation_ratings_differences
from tournaments.federation.services import federation_get_or_create
from tournaments.ratings.services import club_ratings_sync

pytestmark = pytest.mark.django_db


def _stored(federation) -> list[tuple]:
    rows = FederationRating.objects.filter(federation=federation).order_by("rank")
    return [(r.rank, r.player_id, round(r.rating, 9), round(r.rd, 9), r.matches, r.periods,
             r.provisional) for r in rows]  # fmt: skip


def _computed(federation) -> list[tuple]:
    return [(x.rank, x.player, round(x.rating, 9), round(x.rd, 9), x.matches, x.periods,
             x.provisional) for x in federation_rating_list(federation=federation)]  # fmt: skip


@pytest.fixture
def history():
    rng = random.Random(7)
    clubs = [Club.objects.create(name=n, slug=n.lower()) for n in ("North", "South")]
    players = [player_create(name=f"P{i}") for i in range(12)]
    evenings = []
    for n, club in enumerate([*clubs, clubs[1]]):
        field = players[:8] if n != 1 else players[4:]
        evenings.append(club_evening_generate(club=club, players=field, rounds=3, rng=rng,
                                              name=f"Evening {n}"))  # fmt: skip
    return clubs, evenings


def test_the_stored_list_equals_a_recomputation_and_follows_a_correction(history) -> None:
    clubs, evenings = history
    federation = federation_get_or_create(name="Fed", club_slugs=["north"])
    for tournament, _ in evenings:  # what each finished tournament's ratings job does
        club_ratings_sync(tournament_id=tournament.pk)
    north_only = _stored(federation)
    assert north_only == _computed(federation) != []
    # A club joins: the list now spans both clubs' periods.
    federation = federation_get_or_create(name="Fed", club_slugs=["north", "south"])
    assert _stored(federation) != north_only
    assert _stored(federation) == _computed(federation) != []
    months = FederationRatingMonth.objects.filter(federation=federation)
    assert sum(m.matches for m in months) == 2 * 3 * 4 * 3  # 3 evenings x 3 rounds x 4 tables
    before = _stored(federation)
    # A result corrected after the finish: the club's job re-rates the club and the
    # federation's list with it.
    tournament, matches = evenings[2]
    club_history_correct(tournament=tournament, match=matches[0])
    assert club_ratings_sync(tournament_id=tournament.pk) == "rerated"
    assert _stored(federation) == _computed(federation) != before
    out = io.StringIO()
    call_command("federation_ratings", "--federation", "Fed", "--csv", stdout=out)
    lines = out.getvalue().splitlines()
    assert len(lines) == 1 + len(before)
    assert [int(line.split(",")[1]) for line in lines[1:]] == [r[1] for r in _stored(federation)]


def test_a_rebuild_from_the_events_gives_identical_rows(history) -> None:
    _, evenings = history
    federation = federation_get_or_create(name="Fed", club_slugs=["north", "south"])
    for tournament, _ in evenings:
        club_ratings_sync(tournament_id=tournament.pk)
    assert federation_ratings_differences() == []
    # A forged row is found, and verify_projections names it.
    FederationRating.objects.filter(federation=federation, rank=1).update(rating=3000)
    differences = federation_ratings_differences()
    assert len(differences) == 1 and "player" in str(differences[0])
    err = io.StringIO()
    with pytest.raises(Exception):  # noqa: B017, PT011 - CommandError, returncode 1
        call_command("verify_projections", stdout=io.StringIO(), stderr=err)
    assert "federation" in err.getvalue()
    assert "DIFFERS federation_federationrating federation " in err.getvalue()
    assert len(federation_ratings_differences(fix=True)) == 1  # rebuilt from the events
    assert federation_ratings_differences() == []
    assert _stored(federation) == _computed(federation)
