"""Issue 32 item 1: a sign-in code acts as a person, so only who has authority over the
person's account may issue one (staff, or an organiser of the club that owns the account),
never an organiser who merely entered the person in a tournament of theirs."""

from __future__ import annotations

import logging
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from players.models import Club, LoginCode
from players.services import player_create, player_login_code_issue, player_login_code_use
from tests.web.desk.helpers import organiser
from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def clubs():
    """Club A with its organiser and a member V who signs in with codes (no password), and
    club B's private evening co-organised by someone who is nothing to club A."""
    club_a = Club.objects.create(name="Club A", slug="club-a")
    club_b = Club.objects.create(name="Club B", slug="club-b")
    organiser_a, director_b, co_organiser = organiser("oa"), organiser("ob"), organiser("co")
    club_a.organisers.add(organiser_a)
    club_b.organisers.add(director_b)
    member = player_create(name="Vera", username="vera", club=club_a)
    code = player_login_code_issue(player_id=member.pk, by=organiser_a).code
    player_login_code_use(code=code)
    evening = services.tournament_create(
        name="B private", format="swiss", rounds=1, created_by=director_b, club=club_b,
        is_public=False, play_mode="table",
    )  # fmt: skip
    evening.organisers.add(co_organiser)
    return {"a": organiser_a, "co": co_organiser, "member": member, "evening": evening}


def desk(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_rival_organiser_gets_no_code_for_another_clubs_member(clubs):
    member, evening, co = clubs["member"], clubs["evening"], clubs["co"]
    services.tournament_register(tournament_id=evening.pk, player=member, by=co)
    own = player_login_code_issue(player_id=member.pk, by=clubs["a"]).code  # V's own slip
    roster = desk(co).get(f"/desk/{evening.pk}/").content.decode()
    assert f"/players/{member.pk}/login-code/" not in roster
    response = desk(co).post(f"/desk/{evening.pk}/players/{member.pk}/login-code/")
    assert response.status_code == 403
    assert not re.search(r'id="login-code"', response.content.decode())
    # Nothing written: V's own code still signs V in, and no code was issued by the rival.
    assert not LoginCode.objects.filter(issued_by=co).exists()
    printed = desk(co).post(f"/desk/{evening.pk}/login-codes/print/")
    assert printed.status_code == 200
    assert not LoginCode.objects.filter(issued_by=co).exists()
    assert player_login_code_use(code=own).pk == member.user.pk


def test_a_clubless_player_entered_by_two_organisers_needs_staff(clubs):
    walk_in = player_create(name="Walker")
    mine = services.tournament_create(
        name="Mine", format="swiss", rounds=1, created_by=clubs["a"], play_mode="table"
    )
    services.tournament_register(tournament_id=mine.pk, player=walk_in, by=clubs["a"])
    # The evening's own walk-in: its organiser gives the code.
    first = desk(clubs["a"]).post(f"/desk/{mine.pk}/players/{walk_in.pk}/login-code/")
    assert first.status_code == 200
    evening = clubs["evening"]
    services.tournament_register(tournament_id=evening.pk, player=walk_in, by=clubs["co"])
    rival = desk(clubs["co"]).post(f"/desk/{evening.pk}/players/{walk_in.pk}/login-code/")
    assert rival.status_code == 403
    staff = get_user_model().objects.create_user(username="boss", password="x", is_staff=True)
    assert (
        desk(staff).post(f"/desk/{evening.pk}/players/{walk_in.pk}/login-code/").status_code == 200
    )


def test_the_clubs_organiser_issues_and_the_issue_is_logged(
    clubs, caplog, django_capture_on_commit_callbacks
):
    member = clubs["member"]
    tournament = services.tournament_create(
        name="A evening", format="swiss", rounds=1, created_by=clubs["a"],
        club=member.club, play_mode="table",
    )  # fmt: skip
    services.tournament_register(tournament_id=tournament.pk, player=member, by=clubs["a"])
    with (
        caplog.at_level(logging.INFO, logger="players.accounts"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = desk(clubs["a"]).post(f"/desk/{tournament.pk}/players/{member.pk}/login-code/")
    assert response.status_code == 200
    records = [r for r in caplog.records if r.name == "players.accounts"]
    assert records and records[-1].player_id == member.pk
    assert records[-1].issued_by == clubs["a"].pk
