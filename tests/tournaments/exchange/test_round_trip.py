"""Export → import → identical standings: a file read into this installation becomes a team
event whose standings, and whose own exchange file, are the file's."""

from __future__ import annotations

import pytest

from core.errors import ValidationError
from tests.tournaments.exchange.helpers import exchange_text, random_team_event
from tournaments.exchange.export import team_event_exchange_text
from tournaments.exchange.imports import team_event_import
from tournaments.teams.domain import team_standings
from tournaments.teams.models import TeamEvent, TeamStanding
from tournaments.teams.projections import team_event_state

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("fmt", "teams", "boards"), [("team_swiss", 7, 3),
                                                       ("team_round_robin", 4, 2)])  # fmt: skip
def test_an_imported_file_gives_identical_standings(organiser, fmt, teams, boards) -> None:
    state = random_team_event(11, teams=teams, boards=boards, fmt=fmt)
    text = exchange_text(state)
    event = team_event_import(text=text, by=organiser)
    assert event.status == "finished"
    want = [(s.team, s.rank, s.match_points, s.board_points, s.hollywood_points)
            for s in team_standings(state)]  # fmt: skip
    got = list(TeamStanding.objects.filter(event=event).order_by("rank").values_list(
        "team", "rank", "match_points", "board_points", "hollywood_points"))  # fmt: skip
    assert got == want
    # The same file back (no member list here links the federation ids: they stay blank).
    again = team_event_exchange_text(event=event).replace(event.name, "Random event")
    assert again == exchange_text(state, feds=False)
    assert team_standings(team_event_state(event=event)) == team_standings(state)


def test_a_file_that_is_not_hgx_writes_nothing(organiser) -> None:
    before = TeamEvent.objects.count()
    with pytest.raises(ValidationError) as caught:
        team_event_import(text="012 not a file\n", by=organiser)
    assert caught.value.code == "exchange_file"
    text = exchange_text(random_team_event(2, teams=4, boards=2, fmt="team_swiss"))
    broken = text.replace("052 2 1 0", "052 2 1")
    with pytest.raises(ValidationError):
        team_event_import(text=broken, by=organiser)
    assert TeamEvent.objects.count() == before
