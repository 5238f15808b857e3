"""POST /api/players/{id}/erase/, `manage.py erase_player` and the admin action: who may,
what a bad or repeated request answers (a clear 4xx, nothing written), what is gone."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.utils import timezone

import eventstore
from core.models import AccessToken
from players.models import Club, LoginCode, Player
from players.services import player_create
from tests.helpers import token_client
from tests.privacy.helpers import EMAIL, NAME, USERNAME

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_and_ana():
    organiser = get_user_model().objects.create_user(username="orga", password="pw")
    club = Club.objects.create(name="Gin Club", slug="gin-club")
    club.organisers.add(organiser)
    ana = player_create(name=NAME, username=USERNAME, password="secret-pass-1", email=EMAIL)
    club.members.add(ana)
    return organiser, ana


def _erase(client, player_id, body=None):
    return client.post(
        f"/api/players/{player_id}/erase/", body or {"confirm": True, "reason": "asked"},
        format="json",
    )  # fmt: skip


def test_only_staff_and_her_clubs_organisers_may_erase_her(club_and_ana, make_player):
    organiser, ana = club_and_ana
    stranger = get_user_model().objects.create_user(username="someone", password="pw")
    other_org = get_user_model().objects.create_user(username="other-org", password="pw")
    Club.objects.create(name="Other", slug="other").organisers.add(other_org)
    for user in (stranger, other_org, make_player().user):
        answer = _erase(token_client(user), ana.pk)
        assert answer.status_code == 403, answer.content
        assert answer.json()["error"]["reason"] == "erase_forbidden"
    assert _erase(token_client(ana.user), ana.pk).status_code == 403
    ana.refresh_from_db()
    assert ana.erased_at is None and ana.name == NAME
    assert _erase(token_client(organiser), ana.pk).status_code == 200
    staff = get_user_model().objects.create_user(username="staff", password="pw", is_staff=True)
    other = player_create(name="Carla Other", username="carla_o", password="pw-carla-1")
    assert _erase(token_client(staff), other.pk).status_code == 200


def test_bad_and_repeated_requests_answer_a_clear_4xx_and_write_nothing(club_and_ana):
    organiser, ana = club_and_ana
    client = token_client(organiser)
    for body in ({"reason": "x"}, {"confirm": False}, {"confirm": "maybe"}):
        answer = _erase(client, ana.pk, body)
        assert answer.status_code == 400, (body, answer.content)
    assert _erase(client, 999_999).status_code == 404
    assert eventstore.event_count(stream_id=f"erasure-{ana.pk}") == 0
    assert _erase(client, ana.pk).status_code == 200
    again = _erase(client, ana.pk)
    assert again.status_code == 409
    assert again.json()["error"]["reason"] == "already_erased"
    assert eventstore.event_count(stream_id=f"erasure-{ana.pk}") == 1


def test_what_is_gone_and_the_erasure_event(club_and_ana):
    organiser, ana = club_and_ana
    now = timezone.now()
    LoginCode.objects.create(
        player=ana, digest="0" * 64, issued_at=now, expires_at=now + dt.timedelta(hours=1)
    )
    token_client(ana.user)  # a token
    user_id = ana.user_id
    assert _erase(token_client(organiser), ana.pk).status_code == 200
    ana = Player.objects.get(pk=ana.pk)
    user = get_user_model().objects.get(pk=user_id)
    assert ana.name == f"Erased player #{ana.pk}"
    assert (user.username, user.email, user.is_active) == (f"erased-{user_id}", "", False)
    assert not user.has_usable_password()
    assert not AccessToken.objects.filter(user=user).exists()
    assert not LoginCode.objects.filter(player=ana).exists()
    [erased] = eventstore.load(stream_id=f"erasure-{ana.pk}")
    assert erased.type == "PlayerErased"
    assert erased.data["player"] == ana.pk and erased.data["by"] == organiser.pk
    assert erased.data["reason"] == "asked"
    stored = eventstore.events_naming(actors=[f"user:{organiser.pk}"])
    assert all("asked" not in str(e.data) for e in stored)  # the reason is kept outside


def test_the_name_reads_translated(club_and_ana):
    organiser, ana = club_and_ana
    _erase(token_client(organiser), ana.pk)
    answer = token_client(organiser).get(f"/api/players/{ana.pk}/", HTTP_ACCEPT_LANGUAGE="de")
    assert answer.json()["name"] == f"Gelöschte Person #{ana.pk}"


def test_the_command_erases_and_refuses_a_second_time(club_and_ana):
    _, ana = club_and_ana
    out = io.StringIO()
    call_command("erase_player", str(ana.pk), "--reason", "by post", stdout=out)
    assert f"erased player {ana.pk}" in out.getvalue()
    assert Player.objects.get(pk=ana.pk).erased_at is not None
    with pytest.raises(CommandError, match="already_erased"):
        call_command("erase_player", str(ana.pk), stdout=io.StringIO())


def test_the_admin_action_erases(club_and_ana, client):
    _, ana = club_and_ana
    admin = get_user_model().objects.create_superuser(username="root", password="pw")
    client.force_login(admin)
    answer = client.post(
        "/admin/players/player/",
        {"action": "erase_players", "_selected_action": [ana.pk]},
        follow=True,
    )
    assert answer.status_code == 200
    assert Player.objects.get(pk=ana.pk).erased_at is not None
