"""A team event's rows are a projection of its events: a forged row is found (and named) by
the comparison verify_projections runs, and a rebuild puts it right."""

from __future__ import annotations

import pytest

from tests.tournaments.exchange.helpers import exchange_text, random_team_event
from tournaments.exchange.imports import team_event_import
from tournaments.teams.models import TeamBoard, TeamStanding
from tournaments.teams.projections import team_events_differences

pytestmark = pytest.mark.django_db


def test_a_forged_standing_or_board_is_found_and_rebuilt(organiser) -> None:
    text = exchange_text(random_team_event(4, teams=5, boards=2, fmt="team_swiss"))
    event = team_event_import(text=text, by=organiser)
    assert team_events_differences() == []
    # Forging read models on purpose (as tests/reliability/test_forged_read_models does).
    TeamStanding.objects.filter(event=event, rank=1).update(match_points=99)
    board = TeamBoard.objects.filter(event=event).exclude(winner=None).first()
    TeamBoard.objects.filter(pk=board.pk).update(winner=None)
    found = team_events_differences()
    assert {(d.table, d.field) for d in found} >= {
        ("teams_teamstanding", "match_points"),
        ("teams_teamboard", "winner"),
    }
    assert team_events_differences(fix=True) != []
    assert team_events_differences() == []
