"""A team captain's page (issue 39, /me/teams/<event id>/): "my evening" links it; the
captain sets the board order for the round to come through team_lineup_set, before the
round's deadline shown in the tournament's zone; once the round is paired its lineup is
read-only; anyone else is refused; bad input is a 4xx that writes nothing; the opponent's
lineup shows only once the round is paired."""

from __future__ import annotations

import pytest
from django.test import Client

from players.services import player_create
from tests.web.desk.helpers import organiser
from tests.web.play.helpers import PASSWORD, team_event_with_captains
from tournaments.teams.models import Team, TeamEvent
from tournaments.teams.selectors import team_event_lineups
from tournaments.teams.services import team_lineup_set, team_round_pair

pytestmark = pytest.mark.django_db


def _signed_in(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def _lineup(event, team: int) -> dict:
    (row,) = [r for r in team_event_lineups(event=event) if r["team"] == team]
    return row


def _version(event) -> int:
    return TeamEvent.objects.get(pk=event.pk).version


def test_my_evening_leads_each_captain_to_their_team_s_page():
    event, (lions, owls) = team_event_with_captains(organiser())
    url = f"/me/teams/{event.pk}/"
    for captain in (lions, owls):
        page = _signed_in(captain).get("/me/").content.decode()
        assert f'href="{url}"' in page and "data-captain-of" in page
    nobody = player_create(name="Eve", username="eve", password=PASSWORD)
    assert url not in _signed_in(nobody).get("/me/").content.decode()


def test_the_captain_sets_the_board_order_before_the_deadline():
    event, (lions, _) = team_event_with_captains(organiser())
    url = f"/me/teams/{event.pk}/"
    client = _signed_in(lions)
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Lineup for round 1" in html and 'name="round" value="1"' in html
    # Round 1 starts at 19:00 UTC: 22:30 in Tehran, the tournament's zone.
    assert "22:30" in html and "Tehran" in html and "19:00" not in html
    first, second, third = Team.objects.get(event=event, number=1).roster
    body = {"round": "1", f"board-{third}": "1", f"board-{first}": "2", f"board-{second}": ""}
    reply = client.post(url, body)
    assert reply.status_code == 302 and reply["Location"] == f"{url}?saved=1"  # round 1
    assert _lineup(event, 1)["players"] == [third, first] and _lineup(event, 1)["set"]
    html = client.get(reply["Location"]).content.decode()
    assert "data-saved" in html and "You have set this lineup." in html
    # The form shows the lineup saved: board order, then the reserve.
    rows = [html.index(f'data-player="{p}"') for p in (third, first, second)]
    assert rows == sorted(rows)


def test_the_page_in_persian_right_to_left():
    event, (lions, _) = team_event_with_captains(organiser())
    client = _signed_in(lions)
    client.cookies["hg_language"] = "fa"
    html = client.get(f"/me/teams/{event.pk}/").content.decode()
    assert 'dir="rtl"' in html and "ترکیب دور" in html and "ذخیرهٔ ترکیب" in html
    assert "۲۲:۳۰" in html  # the deadline in Persian digits, Tehran's time


def test_no_one_else_opens_or_posts_to_the_captain_s_page(client):
    event, (lions, owls) = team_event_with_captains(organiser())
    url = f"/me/teams/{event.pk}/"
    assert client.get(url)["Location"].startswith("/desk/login/")
    assert client.post(url, {"round": "1"})["Location"].startswith("/desk/login/")
    before = _version(event)
    roster = Team.objects.get(event=event, number=1).roster
    body = {"round": "1", **{f"board-{p}": str(i) for i, p in enumerate(roster[:2], 1)}}
    eve = player_create(name="Eve", username="eve", password=PASSWORD)
    assert _signed_in(eve).get(url).status_code == 403
    assert _signed_in(eve).post(url, body).status_code == 403
    td = Client()
    td.force_login(organiser("other-td"))  # an organiser, but not this team's captain
    assert td.get(url).status_code == 403
    assert _signed_in(lions).get("/me/teams/999999/").status_code == 404
    # The Owls' captain posting the Lions' players: their own team's lineup, refused.
    assert _signed_in(owls).post(url, body).status_code == 400
    assert _version(event) == before and not _lineup(event, 1)["set"]


@pytest.mark.parametrize(
    "board",
    [
        {"a": "1", "b": "1"},  # a board twice
        {"a": "1"},  # a board empty
        {"a": "1", "b": "x"},  # not a number
        {"a": "1", "b": "3"},  # no board 3 in a two-board match
        {"a": "1", "b": "2", "round": "x"},
    ],
)
def test_bad_input_is_a_400_that_writes_nothing(board):
    event, (lions, _) = team_event_with_captains(organiser())
    a, b, _ = Team.objects.get(event=event, number=1).roster
    body = {"round": board.pop("round", "1")}
    body |= {f"board-{dict(a=a, b=b)[k]}": v for k, v in board.items()}
    before = _version(event)
    reply = _signed_in(lions).post(f"/me/teams/{event.pk}/", body)
    assert reply.status_code == 400, body
    assert 'class="error"' in reply.content.decode()
    assert _version(event) == before


def test_the_opponent_s_lineup_shows_only_once_the_round_is_paired():
    td = organiser()
    event, (lions, owls) = team_event_with_captains(td)
    owls_roster = Team.objects.get(event=event, number=2).roster
    team_lineup_set(
        event_id=event.pk, team=2, round_number=1, players=owls_roster[1:], by=owls.user
    )
    html = _signed_in(lions).get(f"/me/teams/{event.pk}/").content.decode()
    assert "Owls" not in html  # neither the opponent nor its players
    team_round_pair(event_id=event.pk, round_number=1, by=td)
    html = _signed_in(lions).get(f"/me/teams/{event.pk}/").content.decode()
    assert "against <bdi>Owls</bdi>" in html and "Owls 0" in html and "Owls 1" in html
    assert "This round is paired: its lineup is fixed." in html


def test_once_paired_the_round_s_lineup_is_read_only():
    td = organiser()
    event, (lions, _) = team_event_with_captains(td, rounds=1)
    url = f"/me/teams/{event.pk}/"
    client = _signed_in(lions)
    stale = client.get(url).content.decode()  # the form, before the pairing
    assert 'name="round" value="1"' in stale
    team_round_pair(event_id=event.pk, round_number=1, by=td)
    html = client.get(url).content.decode()
    assert "data-fixed" in html and "Every round is paired" in html
    assert 'name="board-' not in html and 'type="submit"' not in html.split("</header>")[1]
    before, lineup = _version(event), _lineup(event, 1)
    first, second, _ = Team.objects.get(event=event, number=1).roster
    reply = client.post(url, {"round": "1", f"board-{second}": "1", f"board-{first}": "2"})
    assert reply.status_code == 409
    assert "the round is paired" in reply.content.decode()
    assert _version(event) == before and _lineup(event, 1) == lineup
