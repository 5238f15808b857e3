"""Privacy test helpers: a member with a login who registers herself, plays at a table and
online, disputes in her own words and is named in an organiser's ruling (issue 34)."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection

from games.services import match_act, match_create
from games.services.disputes import match_dispute_open, match_dispute_resolve
from players.models import Club, Player
from players.services import player_create
from tests.tournaments.helpers import make_bots, record_gins
from tournaments import services
from tournaments.models import Pairing, Tournament

NAME = "Ana Müllerová"
USERNAME = "ana_mu77"
EMAIL = "ana.mullerova@example.org"


@dataclass
class Story:
    organiser: Any
    club: Club
    ana: Player
    tournament: Tournament
    table_match: str
    online_match: str


def ana_story() -> Story:
    """Ana, a club member with a login, registers herself for a table tournament, plays her
    table match (lost by gin hands), disputes it in her own words (naming herself), and the
    organiser dismisses the dispute with a reason that names her; she also plays an online
    match (resigns)."""
    organiser = get_user_model().objects.create_user(username="orga", password="pw-organiser")
    club = Club.objects.create(name="Gin Club", slug="gin-club")
    club.organisers.add(organiser)
    ana = player_create(name=NAME, username=USERNAME, password="secret-pass-1", email=EMAIL)
    club.members.add(ana)
    bots = make_bots(3)
    tournament = services.tournament_create(
        name="Tuesday",
        format="swiss",
        rounds=1,
        created_by=organiser,
        ruleset={"game_target": 25, "end_when_decided": True},
        play_mode="table",
        club=club,
    )
    services.tournament_register(tournament_id=tournament.pk, player=ana, by=ana.user)
    for bot in bots:
        services.tournament_register(tournament_id=tournament.pk, player=bot, by=organiser)
    for player in [ana, *bots]:
        services.tournament_check_in(tournament_id=tournament.pk, player=player, by=organiser)
    services.tournament_start(tournament_id=tournament.pk, by=organiser)
    pairings = Pairing.objects.filter(round__tournament=tournament).select_related(
        "player1", "player2"
    )
    for pairing in pairings:
        winner = pairing.player1 if pairing.player1 != ana else pairing.player2
        record_gins(pairing.match_id, organiser, winner)
    table_match = str(next(p.match_id for p in pairings if ana in (p.player1, p.player2)))
    match_dispute_open(
        match_id=table_match,
        player=ana,
        statement=f"I am {USERNAME} ({NAME}, {EMAIL}): the second hand was mine.",
    )
    match_dispute_resolve(
        match_id=table_match,
        by=organiser,
        dispute=1,
        outcome="dismissed",
        reason=f"{NAME} misread the sheet; {USERNAME} agreed.",
    )
    online = match_create(player1=ana, player2=bots[0], mode="online", organisers=[organiser])
    match_act(match_id=online.pk, player=ana, action={"type": "resign"}, request_id="ana-req-1")
    return Story(organiser, club, ana, tournament, table_match, str(online.pk))


def standings_of(tournament: Tournament) -> list[tuple]:
    return list(
        tournament.standings.order_by("rank", "player_id").values_list(
            "player_id", "rank", "match_wins", "played", "games_won", "points_diff", "buchholz"
        )
    )


def pg_dump_data() -> str:
    """A plain-text `pg_dump --data-only` of the whole test database."""
    settings = connection.settings_dict
    args = ["pg_dump", "--data-only", f"--dbname={settings['NAME']}"]
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if settings.get(key):
            args.append(f"{flag}={settings[key]}")
    env = {**os.environ}
    if settings.get("PASSWORD"):
        env["PGPASSWORD"] = str(settings["PASSWORD"])
    done = subprocess.run(args, env=env, capture_output=True, check=True)
    return done.stdout.decode("utf-8")


def traces(text: str) -> list[str]:
    """Which of Ana's name, username and e-mail `text` holds (case-insensitive)."""
    folded = text.casefold()
    return [t for t in (NAME, USERNAME, EMAIL) if t.casefold() in folded]
