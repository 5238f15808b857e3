"""The desk's team events (issue 39): a team tournament made at the desk, its sides
registered from lists of names, a lineup set by board numbers, the round paired, the
team-match sheet linking each board's match, the standings as CSV and .xlsx; the wall and
the print page with the board results; the event's organisers only; bad input is a 400
that writes nothing; every string in the five languages, Persian right to left."""

from __future__ import annotations

import io

import openpyxl
import pytest
from rest_framework.test import APIClient

from players.models import Player
from tests.web.desk.helpers import organiser, team_tournament_in_play
from tournaments.models import Tournament
from tournaments.teams.models import Team, TeamBoard, TeamEvent

pytestmark = pytest.mark.django_db


def _made(client) -> TeamEvent:
    reply = client.post(
        "/desk/team-events/",
        {"name": "Club league", "format": "team_swiss", "boards": "2", "rounds": "2"},
    )
    assert reply.status_code == 302, reply.content.decode()[:2000]
    event = TeamEvent.objects.get()
    assert reply["Location"] == f"/desk/team-events/{event.pk}/"
    return event


def test_a_team_tournament_run_at_the_desk(client):
    td = organiser()
    client.force_login(td)
    assert 'href="/desk/team-events/"' in client.get("/desk/").content.decode()
    event = _made(client)
    tournament = Tournament.objects.get()
    assert event.tournament == tournament and tournament.format == "team_swiss"
    # The tournament's own desk page leads to its team event's.
    assert client.get(f"/desk/{tournament.pk}/")["Location"] == f"/desk/team-events/{event.pk}/"
    url = f"/desk/team-events/{event.pk}/"
    assert f'href="{url}"' in client.get("/desk/team-events/").content.decode()
    known = Player.objects.create(name="Known Player")
    reply = client.post(url + "teams/", {"name": "Lions", "roster": f"Ann\nBen\n#{known.pk}"})
    assert reply.status_code == 302
    lions = Team.objects.get(event=event, number=1)
    ann = Player.objects.get(name="Ann")
    assert lions.roster[0] == ann.pk and lions.roster[2] == known.pk and lions.captain_id == ann.pk
    reply = client.post(url + "teams/", {"name": "Owls", "roster": "Cat\nDan"})
    assert reply.status_code == 302
    page = client.get(url).content.decode()
    assert "Lions" in page and "Known Player" in page and 'name="board-' in page
    # The lineup for round 1 by board numbers: Known Player on board 1, Ben on 2, Ann out.
    ben = Player.objects.get(name="Ben")
    lineup = {f"board-{known.pk}": "1", f"board-{ben.pk}": "2", f"board-{ann.pk}": ""}
    assert client.post(url + "teams/1/lineup/", lineup).status_code == 302
    lineups = client.get(f"/api/tournaments/{tournament.pk}/lineups/").json()
    assert lineups[0]["players"] == [known.pk, ben.pk] and lineups[0]["set"] is True
    hidden = APIClient().get(f"/api/tournaments/{tournament.pk}/lineups/").json()
    assert hidden[0]["players"] == [] and hidden[0]["hidden"]  # an onlooker, before pairing
    assert client.post(url + "pair/").status_code == 302
    page = client.get(url).content.decode()
    boards = TeamBoard.objects.filter(event=event).order_by("board")
    assert [b.player1_id if b.player1_id in lions.roster else b.player2_id for b in boards] == [
        known.pk,
        ben.pk,
    ]
    for b in boards:
        assert f'href="/desk/matches/{b.match_id}/"' in page


def test_bad_input_is_a_400_and_writes_nothing(client):
    td = organiser()
    client.force_login(td)
    refused = client.post(
        "/desk/team-events/", {"name": "X", "format": "team_swiss", "boards": "0"}
    )
    assert refused.status_code == 400 and not Tournament.objects.exists()
    event = _made(client)
    url = f"/desk/team-events/{event.pk}/"
    assert client.post(url + "teams/", {"name": "Lions", "roster": "Ann\nBen"}).status_code == 302
    before = (Player.objects.count(), TeamEvent.objects.get().version)
    for body in (
        {"name": "Owls", "roster": "Ann\nCat"},  # Ann is a Lion: all of it or nothing
        {"name": "Lions", "roster": "Eve\nFay"},  # the name is taken
        {"name": "Owls", "roster": "Eve"},  # fewer players than boards
        {"name": "Owls", "roster": ""},
    ):
        reply = client.post(url + "teams/", body)
        assert reply.status_code == 400, body
        assert 'class="error' in reply.content.decode()
    assert (Player.objects.count(), TeamEvent.objects.get().version) == before
    ann, ben = Team.objects.get(event=event).roster
    for lineup in (
        {f"board-{ann}": "1", f"board-{ben}": "1"},
        {f"board-{ann}": "1"},
        {f"board-{ann}": "x", f"board-{ben}": "2"},
        {f"board-{ann}": "1", "board-999999": "2"},
    ):
        assert client.post(url + "teams/1/lineup/", lineup).status_code == 400, lineup
    reply = client.post(url + "pair/")  # one team: too few
    assert reply.status_code == 409 and 'class="error"' in reply.content.decode()
    assert TeamEvent.objects.get().version == before[1]


def test_the_event_s_organisers_only(client):
    event = team_tournament_in_play(organiser(), teams=2, boards=1)
    url = f"/desk/team-events/{event.pk}/"
    assert client.get(url)["Location"].startswith("/desk/login/")
    client.force_login(organiser("other"))
    assert client.get(url).status_code == 403
    assert client.get(url + "standings.csv").status_code == 403
    assert client.post(url + "pair/").status_code == 403
    assert all(e.pk != event.pk for e in client.get("/desk/team-events/").context["events"])


def test_standings_exports_and_the_wall_show_the_board_results(client):
    td = organiser()
    event = team_tournament_in_play(td)
    client.force_login(td)
    url = f"/desk/team-events/{event.pk}/"
    csv_text = client.get(url + "standings.csv").content.decode("utf-8-sig")
    lines = csv_text.strip().splitlines()
    assert lines[0].startswith("Rank,Team,Team name,Match points,Board points")
    names = dict(Team.objects.filter(event=event).values_list("number", "name"))
    standings = list(event.standings.order_by("rank"))
    assert [line.split(",")[2] for line in lines[1:]] == [names[s.team] for s in standings]
    assert [int(line.split(",")[3]) for line in lines[1:]] == [s.match_points for s in standings]
    book = openpyxl.load_workbook(io.BytesIO(client.get(url + "standings.xlsx").content))
    assert book.sheetnames == ["Team standings", "Boards"]
    played = TeamBoard.objects.filter(event=event).exclude(result="")
    # a title row, the headings, a row a board
    assert book["Boards"].max_row == 2 + TeamBoard.objects.filter(event=event).count()
    assert [c.value for c in book["Team standings"][3]][:4] == [
        1, standings[0].team, names[standings[0].team], standings[0].match_points
    ]  # fmt: skip
    wall = client.get(f"/team-events/{event.pk}/wall/").content.decode()
    assert 'class="wall in-play"' in wall and f"/api/team-events/{event.pk}/stream/" in wall
    for b in played:
        assert f'<td class="num">{b.points1}</td>' in wall
    # The owning tournament's public page and wall lead to the team event's.
    tid = event.tournament_id
    assert client.get(f"/tournaments/{tid}/")["Location"] == f"/team-events/{event.pk}/"
    wall_url = client.get(f"/tournaments/{tid}/wall/?lang=fa")["Location"]
    assert wall_url == f"/team-events/{event.pk}/wall/?lang=fa"
    live = client.get(f"/team-events/{event.pk}/", HTTP_HX_REQUEST="true").content.decode()
    assert live.startswith('<div id="team-live">')


def test_the_desk_page_in_persian_is_right_to_left_with_persian_digits(client):
    td = organiser()
    event = team_tournament_in_play(td, teams=2, boards=1)
    client.force_login(td)
    client.cookies["django_language"] = "fa"
    page = client.get(f"/desk/team-events/{event.pk}/", HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    assert 'dir="rtl"' in page and 'lang="fa"' in page
    assert "جدول رده‌بندی تیم‌ها" in page and "ذخیرهٔ ترکیب" in page  # translated
    assert "۱" in page
