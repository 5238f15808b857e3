"""Individual tournaments, export → import → identical standings: an HGX 2 file read into
this installation becomes a finished tournament whose standings rows (every tiebreak) and
whose own exchange file are the file's; a tournament played here through the services
travels the same way; the API and the commands give the file."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from core.drift import pictures_differences
from core.errors import ConflictError, ValidationError
from tests.tournaments.exchange.helpers import checker
from tests.tournaments.exchange.individual_helpers import individual_text, random_tournament
from tests.tournaments.helpers import forfeited_to_the_end, make_bots, make_tournament
from tournaments.domain.standings import standings_of
from tournaments.exchange.export import tournament_exchange_text
from tournaments.exchange.individual_imports import tournament_exchange_import
from tournaments.federation.models import Federation, Member
from tournaments.models import Standing, Tournament
from tournaments.projections import projected_pictures, tournament_rebuild_in_tx

pytestmark = pytest.mark.django_db

COLUMNS = ("rank", "match_wins", "played", "games_won", "points_diff", "buchholz",
           "sonneborn_berger", "byes", "withdrawn")  # fmt: skip


def _rows(tournament: Tournament, order: dict[int, int]) -> list[tuple]:
    """The standings rows, players by their start number in the file."""
    rows = Standing.objects.filter(tournament=tournament).order_by("rank")
    return [(order[r["player"]], *(r[c] for c in COLUMNS))
            for r in rows.values("player", *COLUMNS)]  # fmt: skip


@pytest.mark.parametrize(
    ("fmt", "players", "rounds", "tiebreaks", "bye_buchholz"),
    [("swiss", 9, 5, 2, "virtual_opponent"), ("swiss", 6, 7, 0, "nothing"),
     ("round_robin", 5, 0, 1, "nothing")],
)  # fmt: skip
def test_an_imported_file_gives_identical_standings(  # noqa: PLR0913
    organiser, fmt, players, rounds, tiebreaks, bye_buchholz
) -> None:
    state = random_tournament(17, players=players, fmt=fmt, rounds=rounds, tiebreaks=tiebreaks,
                              bye_buchholz=bye_buchholz)  # fmt: skip
    text = individual_text(state, feds=False)
    tournament = tournament_exchange_import(text=text, by=organiser)
    assert tournament.status == "finished"
    start = {p: i for i, p in enumerate(sorted(state.paired), 1)}
    want = [(start[s.player], s.rank, s.match_wins, s.played, s.games_won, s.points_diff,
             s.buchholz, s.sonneborn_berger, s.byes, s.player in state.withdrawn)
            for s in standings_of(state)]  # fmt: skip
    imported = dict(Standing.objects.filter(tournament=tournament).values_list("player", "rank"))
    order = {p: i for i, p in enumerate(sorted(imported), 1)}
    assert _rows(tournament, order) == want
    again = tournament_exchange_text(tournament=tournament)
    assert again == text  # the same file back
    assert checker.check(again) == []
    # Its rows are its events' (verify_projections' check of a tournament).
    assert (
        pictures_differences(
            lambda: projected_pictures(tournament=tournament),
            lambda: tournament_rebuild_in_tx(tournament=tournament),
        )
        == []
    )


def test_a_tournament_played_here_travels_with_its_federation_ids(organiser, jobs) -> None:
    bots = make_bots(5)
    tournament = make_tournament(organiser, bots, rounds=3)
    federation = Federation.objects.create(name="Federation")
    Member.objects.create(federation=federation, number="RO-0042", name=bots[2].name,
                          player=bots[2])  # fmt: skip
    forfeited_to_the_end(tournament, organiser, jobs, rounds=10)
    text = tournament_exchange_text(tournament=tournament)
    assert "RO-0042" in text
    assert checker.check(text) == []
    copy = tournament_exchange_import(text=text, by=organiser, name="Copy")
    # Linked by its federation id: the same player, not a new one.
    assert Standing.objects.filter(tournament=copy, player=bots[2]).exists()
    source = {p.pk: i for i, p in enumerate(sorted(bots, key=lambda b: b.pk), 1)}
    mine = dict(Standing.objects.filter(tournament=copy).values_list("player", "rank"))
    order = {p: i for i, p in enumerate(sorted(mine), 1)}
    order[bots[2].pk] = source[bots[2].pk]
    others = [p for p in sorted(mine) if p != bots[2].pk]
    order.update(zip(others, [source[b.pk] for b in sorted(bots, key=lambda b: b.pk)
                              if b.pk != bots[2].pk], strict=True))  # fmt: skip
    assert _rows(copy, order) == _rows(tournament, source)


def test_a_file_that_is_not_hgx_2_writes_nothing(organiser) -> None:
    before = Tournament.objects.count()
    text = individual_text(random_tournament(2, players=6, fmt="swiss", rounds=3))
    for bad in (
        "HGX 1\n012 x\n",
        text.replace("072 win nothing", "072 win"),
        text.replace("022 swiss", "022 knockout"),
        text.replace("062 ", "062 luck "),
    ):
        with pytest.raises(ValidationError) as caught:
            tournament_exchange_import(text=bad, by=organiser)
        assert caught.value.code == "exchange_file"
    assert Tournament.objects.count() == before


def test_the_api_and_the_commands_give_the_file(organiser, organiser_client) -> None:
    tournament = tournament_exchange_import(
        text=individual_text(random_tournament(5, players=7, fmt="swiss", rounds=4)),
        by=organiser,
    )
    response = APIClient().get(f"/api/tournaments/{tournament.pk}/exchange/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    body = response.content.decode()
    assert body.startswith("HGX 2\n") and checker.check(body) == []
    out = io.StringIO()
    call_command("export_tournament_exchange", tournament.pk, stdout=out)
    assert out.getvalue() == body
    unfinished = make_tournament(organiser, make_bots(3, prefix="Late"))
    response = APIClient().get(f"/api/tournaments/{unfinished.pk}/exchange/")
    assert response.status_code == 409
    assert response.json()["error"]["reason"] == "exchange_unsupported"
    with pytest.raises(ConflictError):
        tournament_exchange_text(tournament=unfinished)


def test_the_import_command(organiser, tmp_path) -> None:
    path = tmp_path / "t.hgx"
    path.write_text(individual_text(random_tournament(8, players=4, fmt="round_robin")))
    out = io.StringIO()
    call_command("import_tournament_exchange", str(path), "--as", organiser.username, stdout=out)
    assert "imported as tournament" in out.getvalue()
