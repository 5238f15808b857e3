"""The desk before the event: who may use it, creating a tournament in its time zone, the
roster (walk-ins, a pasted list, registered players), check-in with htmx and the start."""

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model

from players.models import Player
from tests.web.desk.helpers import organiser, started, table_swiss
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


def _create_form(**overrides):
    data = {
        "name": "Club night",
        "format": "swiss",
        "rounds": "4",
        "play_mode": "table",
        "time_zone": "Europe/Berlin",
        "starts_at": "2026-03-03T19:30",
        "round_minutes": "50",
        "check_in_required": "on",
        "is_public": "on",
        "tiebreaks": "",
        "games": "3",
        "knock_limit": "10",
        "gin_bonus": "25",
        "undercut_bonus": "10",
        "game_target": "100",
        "game_bonus": "0",
        "box_bonus": "0",
    }
    return {**data, **overrides}


def test_signed_out_goes_to_the_login_page(client):
    response = client.get("/desk/")
    assert response.status_code == 302
    assert response["Location"].startswith("/desk/login/?next=/desk/")


def test_a_player_who_organises_nothing_gets_403(client):
    user = get_user_model().objects.create_user(username="p", password="x")
    client.force_login(user)
    assert client.get("/desk/").status_code == 403


def test_an_organiser_of_one_tournament_only_sees_it_on_the_desk(client):
    from django.contrib.auth import get_user_model

    td = organiser("boss")
    tournament = table_swiss(td, players=0)
    helper = get_user_model().objects.create_user(username="helper", password="x")
    tournament.organisers.add(helper)  # not in the organisers group, not staff
    client.force_login(helper)
    page = client.get("/desk/")
    assert page.status_code == 200 and tournament.name in page.content.decode()
    assert "New tournament" not in page.content.decode()
    assert client.get(f"/desk/{tournament.pk}/").status_code == 200
    assert client.get("/desk/new/").status_code == 403


def test_an_organiser_of_another_tournament_gets_403(client, td):
    other = organiser("other")
    tournament = table_swiss(other, players=2)
    assert client.get(f"/desk/{tournament.pk}/").status_code == 403
    assert client.post(f"/desk/{tournament.pk}/walk-in/", {"name": "X"}).status_code == 403
    assert not Player.objects.filter(name="X").exists()


def test_create_stores_the_start_in_utc_and_shows_it_in_the_zone(client, td):
    response = client.post("/desk/new/", _create_form())
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Club night")
    # 19:30 in Berlin in March (CET, +01:00) is 18:30 UTC.
    assert tournament.starts_at == dt.datetime(2026, 3, 3, 18, 30, tzinfo=dt.UTC)
    assert tournament.time_zone == "Europe/Berlin"
    assert tournament.round_duration == dt.timedelta(minutes=50)
    assert tournament.ruleset["games"] == 3
    page = client.get(response["Location"]).content.decode()
    assert "19:30 CET (Berlin)" in page


def test_create_refuses_bad_input_with_a_form_error_and_writes_nothing(client, td):
    response = client.post("/desk/new/", _create_form(rounds="", knock_limit="11"))
    assert response.status_code == 400
    page = response.content.decode()
    assert "a Swiss tournament needs a number of rounds" in page
    assert "less than or equal to 10" in page
    assert not Tournament.objects.exists()


def test_a_start_in_the_hour_skipped_by_the_clocks_is_refused(client, td):
    # Clocks go forward in Berlin at 02:00 on 29 March 2026: 02:30 does not exist.
    response = client.post("/desk/new/", _create_form(starts_at="2026-03-29T02:30"))
    assert response.status_code == 400
    assert "does not exist in Europe/Berlin" in response.content.decode()
    assert not Tournament.objects.exists()


def test_walk_in_creates_a_player_and_enters_them(client, td):
    tournament = table_swiss(td, players=0)
    response = client.post(f"/desk/{tournament.pk}/walk-in/", {"name": "  Ada   Lovelace "})
    assert response.status_code == 302
    registration = Registration.objects.get(tournament=tournament)
    assert registration.player.name == "Ada Lovelace"
    assert registration.player.user is None


def test_walk_in_with_no_name_is_a_form_error(client, td):
    tournament = table_swiss(td, players=0)
    response = client.post(f"/desk/{tournament.pk}/walk-in/", {"name": "   "})
    assert response.status_code == 400
    assert not Player.objects.exists()


def test_pasted_names_enter_everyone_or_nobody(client, td):
    tournament = table_swiss(td, players=0)
    known = Player.objects.create(name="Bob Known")
    response = client.post(f"/desk/{tournament.pk}/paste/", {"names": "Carol\n\nbob known\nDave\n"})
    assert response.status_code == 302
    entered = set(
        Registration.objects.filter(tournament=tournament).values_list("player__name", flat=True)
    )
    assert entered == {"Carol", "Bob Known", "Dave"}
    assert Registration.objects.filter(player=known).exists()
    # A second paste naming someone already entered: nobody is entered, no player made.
    players_before = Player.objects.count()
    response = client.post(f"/desk/{tournament.pk}/paste/", {"names": "Erin\nCarol"})
    assert response.status_code == 400
    # (The name isolated, U+2068 ... U+2069: a Persian name before an English text.)
    assert "\u2068Carol\u2069: the player is already registered (nobody was entered)" in (
        response.content.decode()
    )
    assert Player.objects.count() == players_before
    assert not Player.objects.filter(name="Erin").exists()


def test_add_a_registered_player(client, td):
    tournament = table_swiss(td, players=0)
    player = Player.objects.create(name="Reg")
    response = client.post(f"/desk/{tournament.pk}/add/", {"player": str(player.pk)})
    assert response.status_code == 302
    assert Registration.objects.filter(tournament=tournament, player=player).exists()
    response = client.post(f"/desk/{tournament.pk}/add/", {"player": "999999"})
    assert response.status_code == 400


def test_check_in_by_htmx_swaps_the_panel_with_its_counts(client, td):
    tournament = table_swiss(td, players=0)
    client.post(f"/desk/{tournament.pk}/paste/", {"names": "A\nB\nC"})
    a = Player.objects.get(name="A")
    response = client.post(f"/desk/{tournament.pk}/check-in/{a.pk}/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    fragment = response.content.decode()
    assert fragment.startswith('<div id="checkin-panel">') and "<html" not in fragment
    assert "1 checked in" in fragment and "2 not yet" in fragment
    assert Registration.objects.get(player=a).status == "checked_in"
    # A player not entered: 404 with the reason, nothing written.
    response = client.post(f"/desk/{tournament.pk}/check-in/999999/", HTTP_HX_REQUEST="true")
    assert response.status_code == 404
    assert "this player is not entered" in response.content.decode()


def test_start_pairs_round_one_and_opens_the_round(client, td):
    tournament = table_swiss(td, players=4)
    response = client.post(f"/desk/{tournament.pk}/start/")
    assert response.status_code == 302
    assert response["Location"] == f"/desk/{tournament.pk}/rounds/1/"
    page = client.get(response["Location"]).content.decode()
    assert "waiting" in page and "Table" in page


def test_start_with_too_few_players_is_a_clear_error(client, td):
    tournament = table_swiss(td, players=1)
    response = client.post(f"/desk/{tournament.pk}/start/")
    assert response.status_code == 400
    assert "at least two players must be checked in" in response.content.decode()


def test_the_public_page_shows_the_start_and_the_rounds_in_the_zone(client, td):
    starts_at = dt.datetime(2026, 7, 7, 17, 30, tzinfo=dt.UTC)
    waiting = table_swiss(td, players=2, starts_at=starts_at)
    page = client.get(f"/tournaments/{waiting.pk}/").content.decode()
    assert "starts Tue 7 Jul 2026 19:30 CEST (Berlin)" in page
    # Once started, when it did (issue 24: not the planned start).
    tournament = started(td, players=2, starts_at=starts_at)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "started " in page and "starts Tue 7 Jul" not in page
    assert "Paired " in page and "(Berlin)" in page
    # In progress: the wall screen follows the stream (web/live.js), no full reload.
    assert 'http-equiv="refresh"' not in page
    assert f'data-stream="/api/tournaments/{tournament.pk}/stream/' in page
    assert 'data-live-target="#tournament-live"' in page


def test_signing_in_returns_to_the_page_asked_for(client):
    organiser("td")
    response = client.post(
        "/desk/login/", {"username": "td", "password": "pw-desk-123", "next": "/desk/"}
    )
    assert response.status_code == 302 and response["Location"] == "/desk/"
    client.logout()
    response = client.post("/desk/login/", {"username": "td", "password": "pw-desk-123"})
    assert response["Location"] == "/desk/"  # an organiser lands on the desk (issue 23)
    client.logout()
    response = client.post("/desk/login/", {"username": "td", "password": "wrong"})
    assert response.status_code == 200 and "correct username and password" in (
        response.content.decode()
    )


def test_the_desk_creates_a_tournament_of_the_organisers_club(client, td):
    """Issue 37, item 2: the desk's new-tournament form offers the organiser's clubs (the
    first chosen, its time zone by default), so a desk tournament gets the club's ratings and
    season; another club's id is refused, and nothing is written."""
    from tournaments.ratings.services import club_create

    mine = club_create(name="Tehran Gin Club", by=td, time_zone="Asia/Tehran")
    other = club_create(name="Someone Else's", by=organiser("otherdesk"))
    page = client.get("/desk/new/").content.decode()
    assert f'<option value="{mine.pk}" selected>' in page
    assert '<option value="Asia/Tehran" selected>' in page
    clubs = re.search(r'<select name="club"[^>]*>(.*?)</select>', page, re.S).group(1)
    assert f'value="{other.pk}"' not in clubs
    response = client.post("/desk/new/", _create_form(club=str(mine.pk)))
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Tournament.objects.get(name="Club night").club == mine
    refused = client.post("/desk/new/", _create_form(name="Not mine", club=str(other.pk)))
    assert refused.status_code == 400
    assert not Tournament.objects.filter(name="Not mine").exists()


def test_a_finished_tournaments_desk_offers_no_entry_forms(client, td):
    """Issue 37, item 7: a finished tournament's desk still offered walk-in, paste and
    login-code forms."""
    from tests.web.desk.helpers import finish_tournament

    tournament = started(td, players=2, rounds=1)
    before = client.get(f"/desk/{tournament.pk}/").content.decode()
    assert "Walk-in" in before and "Paste a list" in before
    assert finish_tournament(tournament, td).status == "finished"
    page = client.get(f"/desk/{tournament.pk}/").content.decode()
    for gone in ("Walk-in", "Paste a list", "New member with a login"):
        assert gone not in page, gone
