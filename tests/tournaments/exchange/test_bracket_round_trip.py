"""Brackets, export → check → import → identical standings (HGX 3): a knockout, a double
elimination and a Swiss with a top cut made by the domain, read into this installation,
become finished tournaments whose places, standings rows and own exchange files are the
file's; brackets played here through the services travel alike; the API gives a
bracket's file."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from core.errors import ValidationError
from tests.tournaments.exchange.bracket_helpers import bracket_text, random_bracket
from tests.tournaments.exchange.helpers import checker
from tests.tournaments.helpers import forfeited_to_the_end, make_bots, make_tournament
from tournaments.domain.standings import standings_of
from tournaments.exchange.export import tournament_exchange_text
from tournaments.exchange.individual_imports import tournament_exchange_import
from tournaments.models import Standing, Tournament
from tournaments.projections import tournament_state
from tournaments.selectors import tournament_bracket

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("kind", "seed", "players", "third_place", "forbidden"),
    [("knockout", 3, 8, False, 0), ("knockout", 5, 11, False, 1),
     ("double_elimination", 36, 10, False, 0), ("double_elimination", 3, 8, False, 2),
     ("double_elimination", 2, 5, False, 0),  # seed 1: a bye, then withdrawn (unranked)
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


@pytest.mark.parametrize(
    ("fmt", "kwargs"),
    [("knockout", {"rounds": None}), ("double_elimination", {"rounds": None}),
     ("swiss", {"rounds": 2, "top_cut": 4, "third_place": True})],
)  # fmt: skip
def test_a_bracket_played_here_travels(organiser, jobs, fmt, kwargs) -> None:
    bots = make_bots(6)
    tournament = make_tournament(organiser, bots, format=fmt, **kwargs)
    forfeited_to_the_end(tournament, organiser, jobs, rounds=20)
    text = tournament_exchange_text(tournament=tournament)
    assert text.startswith("HGX 3\n")
    assert checker.check(text) == []
    copy = tournament_exchange_import(text=text, by=organiser, name="Copy")
    source = {p.pk: i for i, p in enumerate(sorted(bots, key=lambda b: b.pk), 1)}
    mine = dict(Standing.objects.filter(tournament=copy).values_list("player", "rank"))
    order = {p: i for i, p in enumerate(sorted(mine), 1)}
    ranks = dict(Standing.objects.filter(tournament=tournament).values_list("player", "rank"))
    assert sorted((order[p], r) for p, r in mine.items()) == sorted(
        (source[p], r) for p, r in ranks.items()
    )
    assert tournament_exchange_text(tournament=copy).replace("012 Copy", "012 Evening") == text


def test_a_bracket_file_that_does_not_read_writes_nothing(organiser) -> None:
    before = Tournament.objects.count()
    text = bracket_text(random_bracket(2, players=6, kind="top_cut"))
    for bad in (
        text.replace("HGX 3", "HGX 2"),  # bracket records in an HGX 2 file
        text.replace("092 1 0 4 3", "092 1 0 5 3"),  # no top cut of 5
        text.replace("022 swiss", "022 round_robin"),
        text.replace("004    2", "004    3"),  # seeds out of order
    ):
        with pytest.raises(ValidationError) as caught:
            tournament_exchange_import(text=bad, by=organiser)
        assert caught.value.code == "exchange_file"
    assert Tournament.objects.count() == before


def test_an_unfinished_bracket_is_refused(organiser) -> None:
    playing = make_tournament(organiser, make_bots(4), format="knockout", rounds=None)
    response = APIClient().get(f"/api/tournaments/{playing.pk}/exchange/")
    assert response.status_code == 409
    assert response.json()["error"]["reason"] == "exchange_unsupported"
