"""Whole tournaments played by bots, with Celery jobs running eagerly after each commit."""

from __future__ import annotations

import pytest

from demo.bots import match_play_bots
from tests.tournaments.helpers import make_bots, make_tournament
from tournaments import services
from tournaments.models import Pairing, Round, Tournament
from tournaments.projections import standings_from_events, tournament_tiebreaks
from tournaments.selectors import tournament_stream_events


def play_round(tournament: Tournament, number: int) -> None:
    for pairing in Pairing.objects.filter(round__tournament=tournament, round__number=number):
        if pairing.match_id is not None:
            match_play_bots(match_id=pairing.match_id)


def play_all(tournament: Tournament) -> None:
    for _ in range(20):
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.FINISHED:
            return
        play_round(tournament, tournament.current_round)
    raise AssertionError("the tournament did not finish")


@pytest.mark.django_db(transaction=True)
def test_swiss_is_paired_round_after_round_by_the_jobs(organiser):
    players = make_bots(5)
    tournament = make_tournament(organiser, players, rounds=3)
    services.tournament_start(tournament_id=tournament.pk, by=organiser)
    play_all(tournament)

    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    assert [r.number for r in rounds] == [1, 2, 3]
    assert all(r.status == Round.Status.COMPLETED for r in rounds)
    for r in rounds:
        seen = [p for pairing in r.pairings.all() for p in (pairing.player1_id, pairing.player2_id)]
        # 5 players: two matches and one bye per round, nobody twice.
        assert sorted(p for p in seen if p) == sorted(p.pk for p in players)
        assert r.pairings.filter(player2__isnull=True).count() == 1
    byes = Pairing.objects.filter(round__tournament=tournament, player2__isnull=True)
    assert len({p.player1_id for p in byes}) == 3

    standings = list(tournament.standings.order_by("rank"))
    assert sum(s.match_wins for s in standings) == 3 * 3  # two matches + one bye per round
    events, _ = standings_from_events(
        events=tournament_stream_events(tournament=tournament),
        tiebreaks=tournament_tiebreaks(tournament=tournament),
    )
    assert [(s.player, s.rank, s.match_wins, s.games_won, s.points_diff) for s in events] == [
        (s.player_id, s.rank, s.match_wins, s.games_won, s.points_diff) for s in standings
    ]
