"""A team Swiss played end to end by bots through the services: its rows rebuilt from
its events are identical, and its standings are the domain's fold of its stream."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from core.drift import pictures_differences
from demo.team_simulation import team_event_simulate
from tests.tournaments.exchange.helpers import checker
from tournaments.exchange.export import team_event_exchange_text
from tournaments.exchange.imports import team_event_import
from tournaments.teams.domain import team_standings
from tournaments.teams.models import Team, TeamBoard, TeamMatch, TeamStanding
from tournaments.teams.projections import (
    projected_pictures,
    team_event_rebuild_in_tx,
    team_event_state,
)

pytestmark = pytest.mark.django_db(transaction=True)

FAST = {"game_target": 10, "games": 1}


@pytest.mark.slow
def test_team_swiss_of_8_teams_by_4_boards_rebuilds_to_identical_rows() -> None:
    event = team_event_simulate(teams=8, boards=4, ruleset=FAST, progress=False)
    assert event.status == "finished" and event.current_round == 3
    # A tournament of the team format owns it (its own stream: its creation only).
    assert event.tournament.format == "team_swiss" and event.tournament.version == 1
    assert TeamMatch.objects.filter(event=event).count() == 12
    assert TeamBoard.objects.filter(event=event).exclude(result="").count() == 48
    assert Team.objects.filter(event=event).count() == 8
    state = team_event_state(event=event)
    rows = list(TeamStanding.objects.filter(event=event).values_list("team", "match_points"))
    assert rows == [(s.team, s.match_points) for s in team_standings(state)]
    assert (
        pictures_differences(
            lambda: projected_pictures(event=event), lambda: team_event_rebuild_in_tx(event=event)
        )
        == []
    )
    out = StringIO()
    call_command("verify_projections", stdout=out)
    assert "team event read models: 0 differences" in out.getvalue()
    # Its exchange file passes the stand-alone checker and imports to identical standings.
    text = team_event_exchange_text(event=event)
    assert checker.check(text) == []
    copy = team_event_import(text=text, by=event.created_by)
    fields = ("team", "rank", "match_points", "board_points", "hollywood_points")
    assert list(TeamStanding.objects.filter(event=copy).values_list(*fields)) == list(
        TeamStanding.objects.filter(event=event).values_list(*fields)
    )


def test_a_small_team_round_robin_finishes() -> None:
    event = team_event_simulate(
        teams=3, boards=1, format="team_round_robin", ruleset=FAST, progress=False
    )
    assert event.status == "finished" and event.current_round == 3
    assert sorted(TeamStanding.objects.filter(event=event).values_list("byes", flat=True)) == [
        1,
        1,
        1,
    ]
