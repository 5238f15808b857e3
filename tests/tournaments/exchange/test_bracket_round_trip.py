"""Brackets, export → check → import → identical standings (HGX 3): a knockout, a double
elimination and a Swiss with a top cut made by the domain, read into this installation,
become finished tournaments whose places, standings rows and own exchange files are the
file's; the API gives a bracket's file."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.tournaments.exchange.bracket_helpers import bracket_text, random_bracket
from tests.tournaments.exchange.helpers import checker
from tournaments.domain.standings import standings_of
from tournaments.exchange.export import tournament_exchange_text
from tournaments.exchange.individual_imports import tournament_exchange_import
from tournaments.models import Standing
from tournaments.projections import tournament_state
from tournaments.selectors import tournament_bracket

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("kind", "seed", "players", "third_place", "forbidden"),
    [("knockout", 3, 8, False, 0), ("knockout", 5, 11, False, 1),
     ("double_elimination", 3, 8, False, 0), ("double_elimination", 7, 10, False, 0),
     ("top_cut", 3, 8, True, 0), ("top_cut", 11, 13, False, 0)],
)  # fmt: skip
def test_an_imported_bracket_has_identical_places(  # noqa: PLR0913
    organiser, kind, seed, players, third_place, forbidden
) -> None:
    state = random_bracket(seed, players=players, kind=kind, third_place=third_place,
                           forbidden=forbidden)  # fmt: skip
    text = bracket_text(state)
    assert text.startswith("HGX 3\n")
    assert checker.check(text) == []
    tournament = tournament_exchange_import(text=text, by=organiser)
    assert tournament.status == "finished"
    start = {p: i for i, p in enumerate(sorted(state.paired), 1)}
    want = [(start[s.player], s.rank, s.place, s.match_wins) for s in standings_of(state)]
    imported = tournament_state(tournament=tournament)
    ids = {p: i for i, p in enumerate(sorted(imported.paired), 1)}
    assert [(ids[s.player], s.rank, s.place, s.match_wins) for s in standings_of(imported)] == want
    rows = Standing.objects.filter(tournament=tournament).order_by("rank")
    assert [(ids[r.player_id], r.rank) for r in rows] == [w[:2] for w in want]
    again = tournament_exchange_text(tournament=tournament)
    assert again == text  # the same file back
    bracket = tournament_bracket(tournament=tournament)
    assert bracket["problems"] == []
    assert bracket["champion"] == next(p for p, s in ids.items() if s == want[0][0])


def test_the_api_gives_a_brackets_file(organiser) -> None:
    text = bracket_text(random_bracket(4, players=6, kind="double_elimination"))
    tournament = tournament_exchange_import(text=text, by=organiser)
    response = APIClient().get(f"/api/tournaments/{tournament.pk}/exchange/")
    assert response.status_code == 200
    assert response.content.decode() == text
