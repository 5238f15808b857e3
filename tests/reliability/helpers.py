"""Helpers of the reliability tests: the roles of the access matrix, a tournament with one
match in play."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from rest_framework.test import APIClient

from players.selectors import ORGANISERS_GROUP
from players.services import player_create
from tests.helpers import token_client
from tournaments import rounds, services
from tournaments.models import Pairing

FAST_RULES = {"game_target": 25, "end_when_decided": True}


def make_organiser(username: str) -> Any:
    player = player_create(name=username.title(), username=username, password="secret-pass-1")
    player.user.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
    return player.user


def tournament_with_a_match(*, organiser: Any, players: list, is_public: bool) -> tuple[Any, str]:
    """A tournament of `players` (two), started: (tournament, its round-1 match id)."""
    tournament = services.tournament_create(
        name="Private" if not is_public else "Open", format="swiss", rounds=1,
        created_by=organiser, ruleset=FAST_RULES, is_public=is_public,
    )  # fmt: skip
    for player in players:
        services.tournament_register(tournament_id=tournament.pk, player=player, by=organiser)
        services.tournament_check_in(tournament_id=tournament.pk, player=player, by=organiser)
    rounds.tournament_start(tournament_id=tournament.pk, by=organiser)
    pairing = Pairing.objects.filter(round__tournament=tournament, match__isnull=False).first()
    return tournament, str(pairing.match_id)


def role_clients(*, player: Any, organiser: Any) -> dict[str, APIClient]:
    """anonymous, a player of the match, a stranger, the tournament's organiser, another
    organiser, staff."""
    stranger = player_create(name="Stranger", username="stranger", password="secret-pass-1")
    staff = get_user_model().objects.create_user(username="staff", password="x", is_staff=True)
    return {
        "anonymous": APIClient(),
        "player": token_client(player.user),
        "stranger": token_client(stranger.user),
        "organiser": token_client(organiser),
        "other_organiser": token_client(make_organiser("otherorg")),
        "staff": token_client(staff),
    }
