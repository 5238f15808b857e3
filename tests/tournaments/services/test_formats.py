"""Round robin and knockout run to the end; the standings projection agrees with the events."""

from __future__ import annotations

import pytest

from tests.tournaments.helpers import forfeit_round, make_bots, make_tournament
from tournaments import services
from tournaments.models import Pairing, Round, Standing, Tournament
from tournaments.projections import standings_rebuild

pytestmark = pytest.mark.django_db


def run_by_forfeits(tournament, organiser, jobs, *, winner_seat=0, limit=20):
    with jobs():
        services.tournament_start(tournament_id=tournament.pk, by=organiser)
    for _ in range(limit):
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.FINISHED:
            return
        with jobs():
            forfeit_round(tournament, organiser, winner_seat=winner_seat)
    raise AssertionError("the tournament did not finish")


def standing_rows(tournament):
    return [
        (s.player_id, s.rank, s.match_wins, s.played, s.games_won, s.points_diff,
         s.buchholz, s.sonneborn_berger, s.byes, s.withdrawn)
        for s in Standing.objects.filter(tournament=tournament).order_by("rank")
    ]  # fmt: skip


def test_round_robin_everyone_meets_everyone_once(organiser, jobs):
    players = make_bots(5)
    t = make_tournament(organiser, players, format="round_robin", rounds=None)
    run_by_forfeits(t, organiser, jobs)
    t.refresh_from_db()
    assert t.rounds_planned == 5  # odd: n rounds, one bye each
    met = [
        frozenset((p.player1_id, p.player2_id))
        for p in Pairing.objects.filter(round__tournament=t, player2__isnull=False)
    ]
    assert len(met) == 10 == len(set(met))
    byes = Pairing.objects.filter(round__tournament=t, player2__isnull=True)
    assert sorted(p.player1_id for p in byes) == sorted(p.pk for p in players)


def test_knockout_halves_the_field_until_a_champion(organiser, jobs):
    players = make_bots(6)
    t = make_tournament(organiser, players, format="knockout", rounds=None)
    run_by_forfeits(t, organiser, jobs, winner_seat=1)
    t.refresh_from_db()
    assert t.rounds_planned == 3
    sizes = [r.pairings.count() for r in Round.objects.filter(tournament=t).order_by("number")]
    assert sizes == [4, 2, 1]  # 2 byes to the top seeds, then 2 semi-finals, a final
    # Byes go to seeds 1 and 2, who cannot meet before the final.
    seeds = {r.seed: r.player_id for r in t.registrations.all()}
    byes = Pairing.objects.filter(round__tournament=t, round__number=1, player2__isnull=True)
    assert {p.player1_id for p in byes} == {seeds[1], seeds[2]}
    semis = Pairing.objects.filter(round__tournament=t, round__number=2)
    assert not any({p.player1_id, p.player2_id} == {seeds[1], seeds[2]} for p in semis)
    final = Pairing.objects.get(round__tournament=t, round__number=3)
    assert final.winner_id is not None
    # Nobody who lost plays again.
    losers = set()
    for r in Round.objects.filter(tournament=t).order_by("number"):
        for p in r.pairings.all():
            assert not ({p.player1_id, p.player2_id} & losers)
            if p.player2_id:
                losers.add(p.player1_id if p.winner_id == p.player2_id else p.player2_id)


def test_rebuilt_standings_equal_the_incremental_ones(organiser, jobs):
    players = make_bots(7)
    t = make_tournament(organiser, players, rounds=3, tiebreaks=["match_wins", "buchholz"])
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    with jobs():
        services.tournament_round_repair(
            tournament_id=t.pk, round_number=1, by=organiser, reason="mix"
        )
        forfeit_round(t, organiser)
    with jobs():
        services.tournament_withdraw(tournament_id=t.pk, player=players[2], by=organiser)
        forfeit_round(t, organiser, winner_seat=1)
    with jobs():
        forfeit_round(t, organiser)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    incremental = standing_rows(t)
    assert len(incremental) == 7 and sum(r[-1] for r in incremental) == 1  # one withdrawn
    Standing.objects.filter(tournament=t).delete()
    standings_rebuild(tournament=t)
    assert standing_rows(t) == incremental


def test_rebuild_standings_command_repairs_a_damaged_projection(organiser, jobs):
    from io import StringIO

    from django.core.management import call_command

    t = make_tournament(organiser, make_bots(4), rounds=1)
    run_by_forfeits(t, organiser, jobs)
    good = standing_rows(t)
    Standing.objects.filter(tournament=t, rank=1).update(match_wins=7)
    out = StringIO()
    call_command("rebuild_standings", stdout=out)
    assert "DIFFERED" in out.getvalue()
    assert standing_rows(t) == good
    out = StringIO()
    call_command("rebuild_standings", "--tournament", str(t.pk), stdout=out)
    assert "matches the events" in out.getvalue()


def test_a_knockout_final_without_an_opponent_ends_the_tournament(organiser, jobs):
    players = make_bots(4)
    t = make_tournament(organiser, players, format="knockout", rounds=None)
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    semi = Pairing.objects.filter(round__tournament=t, round__number=1).first()
    with jobs():
        forfeit_round(t, organiser)
        # One finalist withdraws before the final is paired.
        services.tournament_withdraw(
            tournament_id=t.pk, player=semi.player1, by=organiser, reason="injured"
        )
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    final = Pairing.objects.get(round__tournament=t, round__number=2)
    assert final.player2_id is None and final.result_reason == "bye"


def test_swiss_pairing_is_given_the_previous_rounds_results(organiser, jobs, monkeypatch):
    """Who floated last round comes from the results: the scheduler must pass them on."""
    from tournaments.domain import pairing as scheduling

    seen = []

    def swiss_pair(**kwargs):
        seen.append(kwargs.get("results", ()))
        return real(**kwargs)

    real = scheduling.swiss_pair_avoiding
    monkeypatch.setattr(scheduling, "swiss_pair_avoiding", swiss_pair)
    t = make_tournament(organiser, make_bots(5), rounds=2)
    run_by_forfeits(t, organiser, jobs)
    assert [len(results) for results in seen] == [0, 3]  # round 1: none; round 2: 2 + bye
    finished = Pairing.objects.filter(round__tournament=t, round__number=1)
    assert {(r.round, r.player1, r.player2, r.winner) for r in seen[1]} == {
        (1, p.player1_id, p.player2_id, p.winner_id) for p in finished
    }
