"""The desk's seasons of a club: a new season, its rules changed (the standings counted
again), its standings on the page, as .xlsx and as CSV; the club's organisers only."""

from __future__ import annotations

import datetime as dt
import io
import random

import openpyxl
import pytest

from demo.club_history import club_evening_generate
from players.models import Club, Player
from tests.web.desk.helpers import organiser
from tournaments.ratings.models import Season, SeasonStanding
from tournaments.ratings.selectors import season_standings_table
from tournaments.ratings.services import club_ratings_apply_in_tx

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_with_evenings():
    td = organiser()
    club = Club.objects.create(name="Gin Club", slug="gin")
    club.organisers.add(td)
    players = [Player.objects.create(name=n) for n in ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")]
    rng = random.Random(5)
    for n in range(3):
        tournament, _ = club_evening_generate(
            club=club, players=players, rounds=3, rng=rng, name=f"Evening {n + 1}"
        )
        club_ratings_apply_in_tx(tournament_id=tournament.pk)
    return {"td": td, "club": club, "players": players}


def _form(**overrides):
    today = dt.date.today()
    data = {
        "name": "Winter",
        "starts_on": (today - dt.timedelta(days=10)).isoformat(),
        "ends_on": (today + dt.timedelta(days=10)).isoformat(),
        "place_points": "10, 6, 3, 1",
        "participation_points": "1",
        "best_of": "",
    }
    return {**data, **overrides}


def test_a_season_made_and_changed_at_the_desk_and_its_standings(client, club_with_evenings):
    club = club_with_evenings["club"]
    client.force_login(club_with_evenings["td"])
    home = client.get("/desk/").content.decode()
    assert f'href="/desk/clubs/{club.pk}/seasons/"' in home
    url = f"/desk/clubs/{club.pk}/seasons/"
    assert "No seasons yet." in client.get(url).content.decode()
    refused = client.post(url, _form(ends_on="2000-01-01"))
    assert refused.status_code == 400 and not Season.objects.exists()
    assert client.post(url, _form(place_points="10, six")).status_code == 400
    response = client.post(url, _form())
    season = Season.objects.get()
    assert response.status_code == 302 and response["Location"] == f"{url}{season.pk}/"
    assert season.place_points == [10, 6, 3, 1] and season.best_of is None
    every = dict(SeasonStanding.objects.filter(season=season).values_list("player", "points"))
    assert len(every) == 6
    page = client.get(f"{url}{season.pk}/").content.decode()
    assert page.count('<tr><td class="num">') == 6 and 'value="10, 6, 3, 1"' in page
    # Best 1 of 3: the standings are counted again at once.
    assert client.post(f"{url}{season.pk}/", _form(best_of="1")).status_code == 302
    season.refresh_from_db()
    best = dict(SeasonStanding.objects.filter(season=season).values_list("player", "points"))
    assert season.best_of == 1 and best != every and all(best[p] <= every[p] for p in every)
    assert max(best.values()) == 11  # a win (10) and taking part (1)


def test_the_seasons_standings_as_xlsx_and_csv(client, club_with_evenings):
    club = club_with_evenings["club"]
    client.force_login(club_with_evenings["td"])
    client.post(f"/desk/clubs/{club.pk}/seasons/", _form())
    season = Season.objects.get()
    base = f"/desk/clubs/{club.pk}/seasons/{season.pk}/"
    response = client.get(base + "standings.xlsx")
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    rows = [list(r) for r in sheet.iter_rows(values_only=True)][1:]  # under the title row
    assert rows[0] == ["Rank", "Player id", "Player", "Points", "Played", "Counted",
                       "Tournaments won", "Match wins", "Shared"]  # fmt: skip
    assert rows[1:] == season_standings_table(season=season)[1]
    assert sheet.title == "Season standings"
    text = client.get(base + "standings.csv").content.decode("utf-8-sig")
    assert text.splitlines()[0].startswith("Rank,Player id,Player,Points")
    assert len(text.splitlines()) == 7


def test_another_clubs_organiser_and_strangers_are_refused(client, club_with_evenings):
    club = club_with_evenings["club"]
    client.force_login(club_with_evenings["td"])
    client.post(f"/desk/clubs/{club.pk}/seasons/", _form())
    season = Season.objects.get()
    client.logout()
    paths = [f"/desk/clubs/{club.pk}/seasons/", f"/desk/clubs/{club.pk}/seasons/{season.pk}/",
             f"/desk/clubs/{club.pk}/seasons/{season.pk}/standings.xlsx"]  # fmt: skip
    for path in paths:
        assert client.get(path).status_code == 302  # to the sign-in
    other = organiser("other-td")
    Club.objects.create(name="Other", slug="other").organisers.add(other)
    client.force_login(other)
    for path in paths:
        assert client.get(path).status_code == 403, path
    assert client.post(paths[1], _form(name="Mine")).status_code == 403
    assert client.get(f"/desk/clubs/{club.pk}/seasons/999999/").status_code in (403, 404)
    season.refresh_from_db()
    assert season.name == "Winter"
