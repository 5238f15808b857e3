"""A club's finished evenings, played at tables: each hand recorded through the services
(a random knock, gin or undercut), so every event, standing, rating and season row is what
a real evening leaves. For `load_demo` and the pages' tests. After-commit work (the result
and ratings jobs) must run: call it outside a transaction, with eager Celery."""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from games.hand_entries import HandEntry
from games.selectors import match_outcomes
from games.services import match_record_hand
from players.models import Club, Player
from tournaments import services
from tournaments.models import Pairing, Tournament

RULES = {"game_target": 50, "end_when_decided": True}


def _play_match(match_id: Any, p1: Player, p2: Player, by: AbstractBaseUser, rng: random.Random,
                edge: float) -> None:  # fmt: skip
    """Record hands until the match is over; `edge`: player1's chance to knock a hand."""
    for _ in range(60):
        outcome = match_outcomes(match_ids=[match_id]).get(str(match_id))
        if outcome is None or outcome.status == "finished":
            return
        knocker = p1 if rng.random() < edge else p2
        if rng.random() < 0.2:
            kd, dd, gin = 0, rng.randint(8, 45), True
        else:
            kd, dd, gin = rng.randint(1, 10), rng.randint(0, 40), False
        hand = HandEntry(knocker=knocker.pk, gin=gin, knocker_deadwood=kd, defender_deadwood=dd)
        match_record_hand(match_id=match_id, by=by, hand=hand)


def club_evening_play(
    *,
    club: Club,
    organiser: AbstractBaseUser,
    players: list[Player],
    rounds: int,
    rng: random.Random,
    name: str,
    skill: dict[int, float] | None = None,
    is_public: bool = True,
) -> Tournament:
    """One Swiss evening of `players` at tables in `club`, played to its end."""
    skill = skill or {}
    tournament = services.tournament_create(
        name=name, format="swiss", rounds=rounds, created_by=organiser, club=club,
        ruleset=RULES, play_mode="table", is_public=is_public, time_zone=club.time_zone,
    )  # fmt: skip
    for player in players:
        services.tournament_register(tournament_id=tournament.pk, player=player, by=organiser)
        services.tournament_check_in(tournament_id=tournament.pk, player=player, by=organiser)
    services.tournament_start(tournament_id=tournament.pk, by=organiser)
    for _ in range(rounds * 3):
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.FINISHED:
            break
        pending = Pairing.objects.filter(
            round__tournament=tournament, status=Pairing.Status.PENDING, match__isnull=False
        ).select_related("player1", "player2")
        for p in pending:
            a, b = skill.get(p.player1_id, 0.0), skill.get(p.player2_id, 0.0)
            edge = min(0.85, max(0.15, 0.5 + (a - b)))
            _play_match(p.match_id, p.player1, p.player2, organiser, rng, edge)
    tournament.refresh_from_db()
    return tournament
