"""Ratings of evenings really played (table hands recorded through the services): applied
by the job when the tournament finishes, re-rated by a correction after it, a lost job
caught by beat's reconciler, and the rebuild from the events equal to what the jobs kept."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest

from games.hand_entries import HandEntry
from games.services import match_rule
from players.models import Club, Player
from tests.tournaments.helpers import record_gins, table_tournament
from tests.tournaments.ratings.helpers import ratings_snapshot
from tournaments.models import Pairing, Tournament
from tournaments.ratings.models import ClubPeriod, ClubRating, RatingEntry
from tournaments.ratings.rebuild import ratings_rebuild
from tournaments.ratings.selectors import club_rerated
from tournaments.ratings.tasks import reconcile

pytestmark = pytest.mark.django_db(transaction=True)  # the result and ratings jobs run after commit


def _play_round(tournament: Tournament, organiser: Any, *, no_show_table: int | None = None):
    """Each pending match of the current round: player1 wins with two gins, except the
    `no_show_table`, forfeited to player1 before any hand."""
    tournament.refresh_from_db()
    pending = Pairing.objects.filter(
        round__tournament=tournament, round__number=tournament.current_round, status="pending"
    ).select_related("player1")
    for pairing in pending:
        if pairing.table == no_show_table:
            match_rule(
                match_id=pairing.match_id, by=organiser, type="forfeit",
                player=pairing.player1, reason="no-show",
            )  # fmt: skip
        else:
            record_gins(pairing.match_id, organiser, pairing.player1)


def _evening(organiser: Any, club: Club, players: list[Player], **kwargs: Any) -> Tournament:
    tournament = table_tournament(organiser, players, club=club)
    _play_round(tournament, organiser, **kwargs)
    _play_round(tournament, organiser)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    return tournament


def test_a_finished_evening_is_rated_by_its_job_and_a_later_correction_rerates(organiser, club):
    players = [Player.objects.create(name=n) for n in ("Ann", "Ben", "Cat", "Dan")]
    first = _evening(organiser, club, players, no_show_table=2)
    period = ClubPeriod.objects.get(tournament=first)
    assert len(period.games) == 3  # four matches, one a no-show
    no_show = Pairing.objects.get(round__tournament=first, round__number=1, table=2)
    assert [no_show.player1_id, no_show.player2_id] not in period.games
    assert ClubRating.objects.filter(club=club).count() == 4
    second = _evening(organiser, club, players)
    assert ClubPeriod.objects.filter(club=club).count() == 2
    assert all(r == [] for r in club_rerated(club_id=club.pk).values())
    before = ratings_snapshot(club.pk)

    # A correction in the first evening (finished) gives the match to the other player.
    pairing = Pairing.objects.get(round__tournament=first, round__number=1, table=1)
    loser = pairing.player2
    for hand in (1, 2):
        match_rule(
            match_id=pairing.match_id,
            by=organiser,
            type="correct_hand",
            reason="typo",
            hand_number=hand,
            hand=HandEntry(knocker=loser.pk, gin=True, knocker_deadwood=0, defender_deadwood=30),
        )
    pairing.refresh_from_db()
    assert pairing.winner_id == loser.pk
    after = ratings_snapshot(club.pk)
    assert after["current"] != before["current"]
    # The first correction left the match undecided (one gin each: back in play, its
    # result withdrawn), the second decided it again: both re-rated, and both say so.
    reasons = {tuple(r["reason"] for r in c) for c in club_rerated(club_id=club.pk).values()}
    assert reasons == {("result withdrawn: round 1, table 1", "result recorded: round 1, table 1")}
    ratings_rebuild(club_ids=[club.pk])
    assert ratings_snapshot(club.pk) == after
    assert [e.tournament_id for e in RatingEntry.objects.filter(club=club, player=loser)] == [
        first.pk,
        second.pk,
    ]


def test_a_lost_ratings_job_is_caught_by_the_reconciler(organiser, club):
    players = [Player.objects.create(name=n) for n in ("Ann", "Ben")]
    # The job is queued (through the outbox) and lost after it left: a worker that took it
    # and died, retries spent. (A broker that was down is the outbox drain's to catch.)
    with mock.patch("tournaments.ratings.services.club_ratings_sync", return_value="lost"):
        tournament = table_tournament(organiser, players, club=club)
        _play_round(tournament, organiser)
        _play_round(tournament, organiser)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert not ClubPeriod.objects.filter(tournament=tournament).exists()
    assert reconcile.delay().get() == [tournament.pk]
    assert ClubRating.objects.filter(club=club).count() == 2
    assert reconcile.delay().get() == []  # nothing left to do


def test_a_tournament_without_a_club_is_not_rated(organiser):
    players = [Player.objects.create(name=n) for n in ("Ann", "Ben")]
    tournament = table_tournament(organiser, players)
    _play_round(tournament, organiser)
    _play_round(tournament, organiser)
    assert not ClubPeriod.objects.exists() and not ClubRating.objects.exists()
