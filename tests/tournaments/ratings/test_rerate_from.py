"""A correction re-rates from its own period on: the history of the periods before it is
kept as it was (not written again) and the result equals a rebuild from the events."""

from __future__ import annotations

from typing import Any

import pytest

from demo.club_history import club_history_correct
from tests.tournaments.ratings.helpers import ratings_snapshot
from tournaments.ratings.models import RatingEntry
from tournaments.ratings.rebuild import ratings_rebuild
from tournaments.ratings.services import club_ratings_apply_in_tx

pytestmark = pytest.mark.django_db


def _ids(tournament: Any) -> set[int]:
    return set(RatingEntry.objects.filter(tournament=tournament).values_list("pk", flat=True))


@pytest.mark.parametrize("corrected", [0, 1, 2])
def test_a_correction_rewrites_its_period_and_the_later_ones_only(
    rated_club: dict[str, Any], corrected: int
) -> None:
    club, evenings = rated_club["club"], rated_club["evenings"]
    ids = [_ids(t) for t, _ in evenings]
    tournament, matches = evenings[corrected]
    club_history_correct(tournament=tournament, match=matches[0])
    assert club_ratings_apply_in_tx(tournament_id=tournament.pk) == "rerated"
    for n, (t, _) in enumerate(evenings):
        kept = _ids(t) == ids[n]
        assert kept == (n < corrected), n
    incremental = ratings_snapshot(club.pk)
    ratings_rebuild(club_ids=[club.pk])
    assert ratings_snapshot(club.pk) == incremental
