"""The tournament's rows are projections of its events: after a random evening through the
services (late entries, withdrawals, re-pairings, forfeits, corrections), a rebuild from the
events alone gives identical rows, and a forged row is named."""

from __future__ import annotations

import random
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from games.services import match_rule
from tests.tournaments.helpers import make_bots, make_tournament
from tournaments import services
from tournaments.models import Pairing, Round
from tournaments.projections import projected_rows, rows_differences, tournament_rebuild_in_tx

pytestmark = pytest.mark.django_db(transaction=False)


def _play_round(t: Any, organiser: Any, jobs: Any, rng: random.Random) -> None:
    round_ = Round.objects.filter(tournament=t).order_by("-number").first()
    for p in Pairing.objects.filter(round=round_, status="pending").exclude(match=None):
        if rng.random() < 0.3:
            with jobs():
                services.tournament_result_rule(
                    tournament_id=t.pk, round_number=round_.number, table=p.table,
                    winner=p.player2, by=organiser, reason="did not come",
                )  # fmt: skip
        else:
            with jobs():
                match_rule(match_id=p.match_id, by=organiser, type="forfeit",
                           player=p.player1, reason="quick")  # fmt: skip


def _evening(organiser: Any, jobs: Any, seed: int, format: str = "swiss") -> Any:  # noqa: A002
    rng = random.Random(seed)
    players = make_bots(rng.randint(4, 9), prefix=f"S{seed}")
    rounds = 3 if format == "swiss" else None
    t = make_tournament(organiser, players, rounds=rounds, format=format)
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    for _ in range(3 if format == "swiss" else 30):
        t.refresh_from_db()
        if t.status == "finished":
            break
        if rng.random() < 0.4:  # the organiser re-pairs before play
            with jobs():
                services.tournament_round_repair(
                    tournament_id=t.pk, round_number=t.current_round, by=organiser,
                    reason="family",
                )  # fmt: skip
        current = Round.objects.get(tournament=t, number=t.current_round)
        if current.number % 2 and current.status == "paired":  # the director starts the clock
            services.tournament_round_clock_start(
                tournament_id=t.pk, round_number=current.number, by=organiser
            )
        if rng.random() < 0.4:  # someone leaves, their match forfeited
            leaving = rng.choice(players)
            with jobs():
                services.tournament_withdraw(
                    tournament_id=t.pk, player=leaving, by=organiser, reason="ill",
                    forfeit_current=True,
                )  # fmt: skip
        _play_round(t, organiser, jobs, rng)
    return t


@pytest.mark.parametrize(
    ("seed", "format"),
    [(1, "swiss"), (2, "swiss"), (3, "swiss"), (5, "swiss"), (8, "swiss"),
     (4, "double_elimination"), (6, "double_elimination"), (9, "knockout")],
)  # fmt: skip
def test_a_rebuild_from_the_events_gives_identical_rows(organiser, jobs, seed, format):  # noqa: A002
    t = _evening(organiser, jobs, seed, format)
    if format == "double_elimination":
        t.refresh_from_db()
        assert t.status == "finished", "the bracket did not end"
    before = projected_rows(tournament=t)
    assert before["pairings"], "the evening paired nobody"
    tournament_rebuild_in_tx(tournament=t)
    assert rows_differences(before, projected_rows(tournament=t)) == []


def test_a_forged_pairing_row_is_named_and_rebuilt(organiser, jobs):
    t = _evening(organiser, jobs, seed=7)
    pairing = Pairing.objects.filter(round__tournament=t).exclude(player2=None).first()
    forged = pairing.player2_id if pairing.winner_id == pairing.player1_id else pairing.player1_id
    Pairing.objects.filter(pk=pairing.pk).update(winner_id=forged)
    out = StringIO()
    call_command("rebuild_standings", tournament=t.pk, check=True, stdout=out)
    assert "DIFFERED" in out.getvalue() and "pairings: stored" in out.getvalue()
    assert Pairing.objects.get(pk=pairing.pk).winner_id == forged  # --check changed nothing
    call_command("rebuild_standings", tournament=t.pk, stdout=StringIO())
    rebuilt = Pairing.objects.get(round=pairing.round, table=pairing.table)
    assert rebuilt.winner_id == pairing.winner_id


def test_a_swiss_with_a_top_cut_ends_with_the_knockout_places_first(organiser, jobs):
    from tournaments.models import Standing

    players = make_bots(9, prefix="Cut")
    t = make_tournament(organiser, players, rounds=3, top_cut=4, third_place=True)
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    for _ in range(10):
        t.refresh_from_db()
        if t.status == "finished":
            break
        _play_round(t, organiser, jobs, random.Random(t.current_round))
    t.refresh_from_db()
    assert t.status == "finished" and t.rounds_planned == 3 + 2
    semis = Pairing.objects.filter(round__tournament=t, round__number=4)
    assert semis.count() == 2  # the top 4
    final_round = Pairing.objects.filter(round__tournament=t, round__number=5).order_by("table")
    final, third = list(final_round)
    ranks = dict(Standing.objects.filter(tournament=t).values_list("player_id", "rank"))
    loser = final.player2_id if final.winner_id == final.player1_id else final.player1_id
    third_loser = third.player2_id if third.winner_id == third.player1_id else third.player1_id
    assert (ranks[final.winner_id], ranks[loser]) == (1, 2)
    assert (ranks[third.winner_id], ranks[third_loser]) == (3, 4)
    before = projected_rows(tournament=t)
    tournament_rebuild_in_tx(tournament=t)
    assert rows_differences(before, projected_rows(tournament=t)) == []


def test_the_writers_the_rebuild_and_the_export_share_the_projected_columns(organiser, jobs):
    from tournaments.models import Standing
    from tournaments.projections.write import PAIRING_COLUMNS, STANDING_COLUMNS, _pairing_fields
    from tournaments.repository import state_of
    from tournaments.selectors.exports import EXPORTED_STANDING_COLUMNS, standings_lines

    t = _evening(organiser, jobs, 9, "knockout")
    state = state_of(tournament=t)
    number, table = min(state.rounds), state.rounds[min(state.rounds)].tables[0].table
    assert tuple(_pairing_fields(state, number, table)) == PAIRING_COLUMNS  # what it writes
    standing_fields = {f.attname for f in Standing._meta.fields} - {"id", "tournament_id"}
    assert standing_fields == {"player_id", *STANDING_COLUMNS}
    # The export file keeps its own order (its format), of the same columns.
    assert sorted(EXPORTED_STANDING_COLUMNS) == sorted(["player_id", *STANDING_COLUMNS])
    rows = projected_rows(tournament=t)["standings"]
    lines = standings_lines(tournament=t)
    at = [EXPORTED_STANDING_COLUMNS.index(c) for c in ("player_id", *STANDING_COLUMNS)]
    assert sorted(rows) == sorted(tuple(line[i] for i in at) for line in lines)
