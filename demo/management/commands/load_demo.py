"""Create the demo organiser and a demo club tournament played by bots."""

from __future__ import annotations

import datetime as dt
import logging
import os
import random
import time

from celery import current_app as celery_app
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.utils import timezone

from demo.club_evenings import club_evening_play
from demo.simulation import standings_table, tournament_simulate
from games.services import match_create
from games.services.practice import practice_matches_of, practice_start
from players.models import Club, Player
from players.services import player_create
from tournaments.models import Tournament
from tournaments.ratings.services import season_create

DEMO_USERNAME = "organiser"
DEMO_PASSWORD = "organiser-demo"  # noqa: S105 - local demo only, printed to the console
DEMO_TOURNAMENT = "Demo club evening (Swiss, bots)"
# Small enough to keep `make run` startup well under a minute: 8 bots, 3 rounds, games to 50,
# a match ending once a player has won two of its three games.
DEMO_PLAYERS, DEMO_ROUNDS, DEMO_GAME_TARGET = 8, 3, 50
# Two logins with a match in progress, to play through the API by hand.
DEMO_HUMANS = (("alice", "Alice"), ("bob", "Bob"))
DEMO_HUMAN_PASSWORD = "gin-demo-player"  # noqa: S105 - local demo only, printed
DEMO_MATCH_LABEL = "Demo match: play it through the API"
# The demo club: a few finished evenings at tables (hands recorded), so its rating list, a
# season and a player's page have something to show (issue 22).
DEMO_CLUB, DEMO_CLUB_SLUG = "Demo club", "demo-club"
DEMO_CLUB_PLAYERS = ("Carla Popescu", "Dmitri Weber", "Eglė Jonaitė", "Farhad Rahimi")
DEMO_EVENINGS, DEMO_EVENING_ROUNDS = 3, 3


def site_address() -> str:
    """Where `make run` serves the app: its HOST and PORT (passed on to this command), so
    the printed links work whatever port was chosen; a wildcard host is reached locally."""
    host = os.environ.get("HOST", "") or "127.0.0.1"
    if host in ("0.0.0.0", "::"):  # noqa: S104 - a listening address, not one bound here
        host = "127.0.0.1"
    return f"http://{host}:{os.environ.get('PORT', '') or '8000'}"


class Command(BaseCommand):
    help = "Create a demo organiser account and a demo club tournament played by bots."

    def add_arguments(self, parser) -> None:  # type: ignore[no-untyped-def]
        parser.add_argument("--no-tournament", action="store_true", help="Only the organiser.")

    def handle(self, *args: object, **options: object) -> None:
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(
            username=DEMO_USERNAME, defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo organiser: username '{DEMO_USERNAME}', password '{DEMO_PASSWORD}' "
                f"(admin at {site_address()}/admin/)"
            )
        )
        if not options["no_tournament"]:
            self._demo_tournament(user)
            self._demo_club(user)
            self._demo_match(user)
            self._demo_practice()
            self._start_here()

    def _start_here(self) -> None:
        """Where a person starts: the pages (the API is for client apps)."""
        site = site_address()
        tournament = Tournament.objects.filter(name=DEMO_TOURNAMENT).first()
        finished = (
            tournament.rounds.filter(pairings__match__status="finished")
            .values_list("pairings__match_id", flat=True)
            .first()
            if tournament is not None
            else None
        )
        lines = ["", "Open in a browser:", f"  home page (tournaments, matches)  {site}/"]
        if tournament is not None:
            lines += [
                f"  the tournament (wall screen)      {site}/tournaments/{tournament.pk}/",
                f"  the organiser's desk              {site}/desk/{tournament.pk}/"
                f"  (sign in as '{DEMO_USERNAME}')",
            ]
        if finished is not None:
            lines.append(f"  a match played by bots, replayed  {site}/matches/{finished}/replay/")
        club = Club.objects.filter(slug=DEMO_CLUB_SLUG).first()
        alice = Player.objects.filter(user__username="alice").first()
        if club is not None:
            lines.append(f"  the demo club (ratings, season)   {site}/clubs/{club.slug}/")
        if alice is not None:
            lines.append(f"  a player's page (Alice)           {site}/players/{alice.pk}/")
        lines += [
            f"  the API's docs (work offline)     {site}/api/docs/",
            f"  the manual (offline too)          {site}/docs/",
            "",
        ]
        self.stdout.write("\n".join(lines))

    def _demo_match(self, user: object) -> None:
        players = []
        for username, name in DEMO_HUMANS:
            player = Player.objects.filter(user__username=username).first()
            if player is None:
                player = player_create(name=name, username=username, password=DEMO_HUMAN_PASSWORD)
            players.append(player)
        if not players[0].matches_as_player1.filter(label=DEMO_MATCH_LABEL).exists():
            match_create(
                player1=players[0],
                player2=players[1],
                organisers=[user],
                created_by=user,
                label=DEMO_MATCH_LABEL,
            )
        match = players[0].matches_as_player1.filter(label=DEMO_MATCH_LABEL).latest("created_at")
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo players: 'alice' and 'bob', password '{DEMO_HUMAN_PASSWORD}'. "
                f"Their match: {site_address()}/api/matches/{match.pk}/ "
                "(POST /api/auth/token/ for a token, then POST .../actions/)"
            )
        )

    def _demo_club(self, user: object) -> None:
        """The demo club's finished evenings (Alice, Bob and four others at tables), rated
        when each finishes, and a season over them."""
        club, created = Club.objects.get_or_create(
            slug=DEMO_CLUB_SLUG, defaults={"name": DEMO_CLUB, "time_zone": "Europe/Bucharest"}
        )
        if not created and Tournament.objects.filter(club=club).exists():
            self.stdout.write(f"Demo club already there: {site_address()}/clubs/{club.slug}/")
            return
        club.organisers.add(user)
        players = []
        for username, name in DEMO_HUMANS:
            player = Player.objects.filter(user__username=username).first()
            if player is None:
                player = player_create(name=name, username=username, password=DEMO_HUMAN_PASSWORD)
            players.append(player)
        for name in DEMO_CLUB_PLAYERS:
            players.append(Player.objects.get_or_create(name=name, user=None, is_bot=False)[0])
        club.members.add(*players)
        rng = random.Random(22)
        skill = {p.pk: s for p, s in zip(players, (0.15, -0.05, 0.1, 0.0, -0.1, 0.05), strict=True)}
        started = time.monotonic()
        eager = celery_app.conf.task_always_eager
        celery_app.conf.task_always_eager = True
        try:
            for n in range(1, DEMO_EVENINGS + 1):
                club_evening_play(
                    club=club, organiser=user, players=players, rounds=DEMO_EVENING_ROUNDS,
                    rng=rng, name=f"Demo club evening {n}", skill=skill,
                )  # fmt: skip
        finally:
            celery_app.conf.task_always_eager = eager
        today = timezone.localdate()
        season_create(
            club_id=club.pk, by=user, name="Demo season", place_points=[10, 7, 5, 3, 2, 1],
            participation_points=1, best_of=2, starts_on=today - dt.timedelta(days=90),
            ends_on=today + dt.timedelta(days=90),
        )  # fmt: skip
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo club: {DEMO_EVENINGS} finished evenings of {len(players)} players at"
                f" tables in {time.monotonic() - started:.1f}s, rated, and a season:"
                f" {site_address()}/clubs/{club.slug}/"
            )
        )

    def _demo_practice(self) -> None:
        """Bob's practice match against the bot, ready to play on the play page (the bot's
        moves are jobs, run at once without a broker)."""
        bob = Player.objects.get(user__username=DEMO_HUMANS[1][0])
        match = practice_matches_of(player=bob).filter(status="in_progress").first()
        if match is None:
            match = practice_start(player=bob)
        site = site_address()
        self.stdout.write(
            self.style.SUCCESS(
                f"Practice against the bot: sign in as 'bob' at {site}/desk/login/, then play "
                f"{site}/play/{match.pk}/ (or start one from {site}/play/)"
            )
        )

    def _demo_tournament(self, user: object) -> None:
        existing = Tournament.objects.filter(name=DEMO_TOURNAMENT).first()
        if existing is not None:
            self.stdout.write(f"Demo tournament already there: id {existing.pk}")
            return
        self.stdout.write(
            f"Playing a demo Swiss tournament: {DEMO_PLAYERS} bots, {DEMO_ROUNDS} rounds, "
            f"games to {DEMO_GAME_TARGET}, best of three ..."
        )
        started = time.monotonic()
        eager = celery_app.conf.task_always_eager
        celery_app.conf.task_always_eager = True  # no worker needed for the demo
        trace_log = logging.getLogger("celery.app.trace")  # quiet: one line per eager job
        level = trace_log.level
        trace_log.setLevel(logging.WARNING)
        try:
            tournament = tournament_simulate(
                players=DEMO_PLAYERS,
                format=Tournament.Format.SWISS,
                rounds=DEMO_ROUNDS,
                ruleset={"game_target": DEMO_GAME_TARGET, "end_when_decided": True},
                name=DEMO_TOURNAMENT,
                progress=False,
                organiser=user,
                prefix="Demo bot",
            )
        finally:
            celery_app.conf.task_always_eager = eager
            trace_log.setLevel(level)
        matches = sum(
            r.pairings.filter(match__isnull=False).count() for r in tournament.rounds.all()
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo tournament id {tournament.pk}: {DEMO_PLAYERS} bot players, "
                f"{tournament.rounds_planned} rounds, {matches} matches played by bots "
                f"in {time.monotonic() - started:.1f}s"
            )
        )
        self.stdout.write(standings_table(tournament))
        base = f"{site_address()}/api/tournaments/{tournament.pk}"
        self.stdout.write(
            f"See it: {base}/standings/  {base}/pairings/?round=1  {base}/events/  "
            f"and /admin/tournaments/tournament/{tournament.pk}/change/"
        )
