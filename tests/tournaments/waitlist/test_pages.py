"""The pages of issue 40: the desk's entries page (organisers only: capacity, approval,
a no-show taken back) and a player's /me/entries/ (enter, wait, withdraw)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from players.models import Player
from tournaments import services
from tournaments.models import Registration
from tournaments.services import waitlist

pytestmark = pytest.mark.django_db


def _player(name: str) -> tuple[Player, Client]:
    user = get_user_model().objects.create_user(username=name.lower())
    client = Client()
    client.force_login(user)
    return Player.objects.create(name=name, user=user), client


def test_a_player_enters_waits_and_withdraws_from_their_page(organiser: Any) -> None:
    t = services.tournament_create(name="Open", format="swiss", rounds=2, created_by=organiser)
    waitlist.tournament_capacity_set(tournament_id=t.pk, by=organiser, capacity=2)
    (_, ca), (_, cb), (c, cc) = _player("Ana"), _player("Ben"), _player("Cleo")
    for client in (ca, cb, cc):
        assert client.post(f"/me/entries/{t.pk}/enter/").status_code == 302
    page = cc.get("/me/entries/").content.decode()
    assert 'data-status="waitlisted"' in page and "number 1 on the waitlist" in page
    assert ca.post(f"/me/entries/{t.pk}/withdraw/").status_code == 302
    assert Registration.objects.get(tournament=t, player=c).status == "registered"
    assert cc.post(f"/me/entries/{t.pk}/nonsense/").status_code == 404

    # The desk: organisers only; approval and refusal.
    assert cb.get(f"/desk/{t.pk}/entries/").status_code == 403
    desk = Client()
    desk.force_login(organiser)
    assert desk.get(f"/desk/{t.pk}/entries/").status_code == 200
    waitlist.tournament_entry_rules_set(
        tournament_id=t.pk, by=organiser, changes={"approval_required": True}
    )
    d, cd = _player("Dara")
    cd.post(f"/me/entries/{t.pk}/enter/")
    assert 'id="requested"' in desk.get(f"/desk/{t.pk}/entries/").content.decode()
    assert desk.post(f"/desk/{t.pk}/entries/{d.pk}/refuse/").status_code == 302
    assert Registration.objects.get(tournament=t, player=d).status == "refused"
    refused = desk.post(f"/desk/{t.pk}/entries/{d.pk}/approve/")
    assert refused.status_code == 302  # approving a refused entry changes nothing
    assert Registration.objects.get(tournament=t, player=d).status == "refused"
    assert desk.post(f"/desk/{t.pk}/entries/", {"capacity": "1"}).status_code == 400
