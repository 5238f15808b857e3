"""Issue 24, the roster at the desk: check in all, undo a check-in, withdraw, a member with
a login of their own, every login code on one printed page; the slips' short address; the
public header's links; when a finished tournament was played."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model

from players.models import LoginCode, Player
from tests.web.desk.helpers import started, table_swiss
from tournaments.models import Registration, Tournament
from tournaments.selectors import tournament_stream_events

pytestmark = pytest.mark.django_db


def _registered(tournament: Tournament, names: str) -> list[Player]:
    from tournaments import services

    players = []
    for name in names.split():
        player = Player.objects.create(name=name)
        services.tournament_register(
            tournament_id=tournament.pk, player=player, by=tournament.created_by
        )
        players.append(player)
    return players


def test_check_in_all_checks_in_everyone_registered_in_one_go(client, td):
    tournament = table_swiss(td, players=0)
    _registered(tournament, "Ana Bo Cy")
    response = client.post(f"/desk/{tournament.pk}/check-in/all/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    fragment = response.content.decode()
    assert fragment.startswith('<div id="checkin-panel">') and "3 checked in" in fragment
    assert 'id="check-in-all"' not in fragment  # nobody left to check in
    assert set(Registration.objects.values_list("status", flat=True)) == {"checked_in"}
    # Without htmx: back to the check-in page.
    assert client.post(f"/desk/{tournament.pk}/check-in/all/").status_code == 302


def test_a_check_in_is_undone_at_the_desk_as_an_event(client, td):
    tournament = table_swiss(td, players=3)
    player = Registration.objects.filter(tournament=tournament).first().player
    page = client.get(f"/desk/{tournament.pk}/check-in/").content.decode()
    assert f"/desk/{tournament.pk}/check-in/{player.pk}/undo/" in page
    response = client.post(
        f"/desk/{tournament.pk}/check-in/{player.pk}/undo/", HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200 and "2 checked in" in response.content.decode()
    assert Registration.objects.get(tournament=tournament, player=player).status == "registered"
    assert tournament_stream_events(tournament=tournament)[-1].type == "PlayerCheckInUndone"
    assert client.post(f"/desk/{tournament.pk}/check-in/99999/undo/").status_code == 404


def test_once_paired_the_undo_is_refused_with_the_reason(client, td):
    tournament = started(td, players=4)
    player = Registration.objects.filter(tournament=tournament).first().player
    page = client.get(f"/desk/{tournament.pk}/check-in/").content.decode()
    assert "/undo/" not in page  # not offered once the tournament has started
    response = client.post(
        f"/desk/{tournament.pk}/check-in/{player.pk}/undo/", HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 409
    assert "withdraw them instead" in response.content.decode()


def test_withdraw_at_the_desk_forfeits_the_match_in_play_when_asked(client, td):
    tournament = started(td, players=4)
    player = Registration.objects.filter(tournament=tournament).first().player
    response = client.post(
        f"/desk/{tournament.pk}/players/{player.pk}/withdraw/",
        {"reason": "went home", "forfeit": "on"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200 and "1 withdrawn" in response.content.decode()
    events = [e for e in tournament_stream_events(tournament=tournament)]
    withdrawn = next(e for e in events if e.type == "PlayerWithdrawn")
    assert withdrawn.data["reason"] == "went home"
    assert any(e.type == "ResultRuled" for e in events)  # the match in play, forfeited
    long = client.post(
        f"/desk/{tournament.pk}/players/{player.pk}/withdraw/",
        {"reason": "x" * 2001},  # core.text.FREE_TEXT_MAX
        HTTP_HX_REQUEST="true",
    )
    assert long.status_code == 400


def test_a_member_with_a_login_is_created_and_entered(client, td):
    tournament = table_swiss(td, players=0)
    url = f"/desk/{tournament.pk}/member/"
    assert client.get(url).status_code == 200
    response = client.post(
        url, {"name": "Maria  Pop", "username": "maria", "password": "a-long-secret-9"}
    )
    assert response.status_code == 302
    player = Player.objects.get(name="Maria Pop")
    assert player.user.username == "maria" and player.user.check_password("a-long-secret-9")
    assert Registration.objects.filter(tournament=tournament, player=player).exists()
    # A username taken: the form says so and nothing is written.
    again = client.post(url, {"name": "Other", "username": "maria"})
    assert again.status_code == 400 and "taken" in again.content.decode()
    assert not Player.objects.filter(name="Other").exists()
    # Too short a password is refused by the validators; none at all is allowed.
    assert client.post(url, {"name": "Ion", "username": "ion", "password": "x"}).status_code == 400
    assert client.post(url, {"name": "Ion", "username": "ion"}).status_code == 302
    ion = Player.objects.get(name="Ion")
    assert not ion.user.has_usable_password()  # a login code signs them in the first time
    roster = client.get(f"/desk/{tournament.pk}/").content.decode()
    assert "Login code" in roster  # Ion may be given one; Maria has her own login


def test_every_login_code_is_printed_on_one_page(client, td):
    tournament = table_swiss(td, players=0)
    _registered(tournament, "Ana Bo Cy Dan")
    roster = client.get(f"/desk/{tournament.pk}/check-in/").content.decode()
    assert "Login codes for the 4 without a password" in roster
    response = client.post(f"/desk/{tournament.pk}/login-codes/print/")
    assert response.status_code == 200
    page = response.content.decode()
    assert page.count('class="code-slip"') == 4
    assert response.headers["Cache-Control"].startswith("max-age=0")
    assert LoginCode.objects.filter(used_at__isnull=True, revoked_at__isnull=True).count() == 4
    # Printed again: new codes, the ones before end.
    client.post(f"/desk/{tournament.pk}/login-codes/print/")
    assert LoginCode.objects.filter(revoked_at__isnull=True).count() == 4
    assert client.get(f"/desk/{tournament.pk}/login-codes/print/").status_code == 405


def test_the_slip_prints_the_table_s_short_address_which_opens_the_table(client, td):
    tournament = started(td, players=4)
    slips = client.get(f"/desk/{tournament.pk}/rounds/1/slips/print/").content.decode()
    assert f"testserver/t/{tournament.pk}/1/1<" in slips
    response = client.get(f"/t/{tournament.pk}/1/1/")
    pairing = tournament.rounds.get(number=1).pairings.get(table=1)
    assert response.status_code == 302 and response["Location"] == f"/tables/{pairing.match_id}/"
    assert client.get(f"/t/{tournament.pk}/1/9/").status_code == 404
    assert client.get(f"/t/{tournament.pk}/1/1").status_code == 301  # typed without the slash
    client.logout()
    assert client.get(f"/t/{tournament.pk}/1/1/")["Location"].startswith("/desk/login/")


def test_the_public_header_shows_admin_to_staff_only_and_the_desk_to_organisers(client, td):
    page = client.get("/").content.decode()
    assert 'id="nav-admin"' not in page and 'id="nav-desk"' in page
    staff = get_user_model().objects.create_user("boss", password="x", is_staff=True)
    client.force_login(staff)
    assert 'id="nav-admin"' in client.get("/").content.decode()
    client.logout()
    page = client.get("/").content.decode()
    assert 'id="nav-admin"' not in page and 'id="nav-desk"' not in page and "Sign in" in page


def test_a_finished_tournament_says_when_it_was_played(client, td):
    tournament = started(
        td, players=2, rounds=1, starts_at=dt.datetime(2026, 7, 7, 17, 30, tzinfo=dt.UTC)
    )
    round_ = tournament.rounds.get(number=1)
    played = dt.datetime(2026, 7, 3, 5, 48, tzinfo=dt.UTC)
    round_.paired_at, round_.completed_at = played, played + dt.timedelta(minutes=12)
    round_.save()
    Tournament.objects.filter(pk=tournament.pk).update(
        status="finished", finished_at=played + dt.timedelta(minutes=12)
    )
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "played Fri 3 Jul 2026 07:48 CEST (Berlin) until 08:00 CEST" in page
    assert "starts " not in page


def test_a_finished_tournaments_roster_has_no_check_in_column(client, td):
    """Issue 37, item 7: a finished tournament's desk still offered check-in and
    withdrawal; its roster lists the players without them."""
    from tournaments.models import Tournament

    tournament = started(td, players=4)
    Tournament.objects.filter(pk=tournament.pk).update(status="finished")  # forged: the page only
    client.force_login(td)
    page = client.get(f"/desk/{tournament.pk}/").content.decode()
    assert "Player 01" in page
    assert "<th>Check-in</th>" not in page and 'data-action="withdraw"' not in page
    running = client.get(f"/desk/{started(td, players=2).pk}/").content.decode()
    assert "<th>Check-in</th>" in running
