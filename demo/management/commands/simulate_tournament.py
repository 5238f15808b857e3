"""Run a whole club tournament with bot players, through the same services as the API."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from celery import current_app as celery_app
from django.core.management.base import BaseCommand, CommandError

from demo.simulation import standings_table, tournament_simulate
from demo.team_simulation import team_event_simulate, team_standings_table
from tournaments.models import Tournament
from tournaments.teams.domain import TEAM_FORMATS


class Command(BaseCommand):
    help = "Simulate a whole tournament played by bots and print the final standings."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--players", type=int, default=16)
        parser.add_argument(
            "--format",
            choices=[*(c for c, _ in Tournament.Format.choices), *TEAM_FORMATS],
            default="swiss",
        )
        parser.add_argument("--teams", type=int, default=8, help="Team formats: the sides.")
        parser.add_argument("--boards", type=int, default=4, help="Team formats: boards a match.")
        parser.add_argument(
            "--rounds", type=int, default=None, help="Swiss rounds (4; a team Swiss: log2 teams)."
        )
        parser.add_argument(
            "--top-cut",
            type=int,
            choices=[4, 8, 16],
            default=None,
            help="Swiss only: after its rounds, the top K play a seeded knockout.",
        )
        parser.add_argument(
            "--third-place", action="store_true", help="A top cut's third-place match."
        )
        parser.add_argument("--game-target", type=int, default=100, help="RULES 8 variant.")
        parser.add_argument(
            "--ruleset",
            type=json.loads,
            default={},
            help="More ruleset keys as JSON (RULES 9), e.g. '{\"end_when_decided\": true}'.",
        )
        parser.add_argument(
            "--worker",
            action="store_true",
            help="Leave the jobs to a running Celery worker instead of running them in process.",
        )
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["format"] in TEAM_FORMATS:
            self._teams(options)
            return
        if options["players"] < 2:
            raise CommandError("a tournament needs at least two players")
        if options["top_cut"] and options["format"] != "swiss":
            raise CommandError("--top-cut follows a Swiss: use it with --format swiss")
        if options["top_cut"] and options["top_cut"] > options["players"]:
            raise CommandError("--top-cut is larger than the field")
        eager = celery_app.conf.task_always_eager
        if not options["worker"]:
            celery_app.conf.task_always_eager = True
        started = time.monotonic()
        # Eager jobs would log every run over the progress bar.
        trace_log = logging.getLogger("celery.app.trace")
        level = trace_log.level
        trace_log.setLevel(logging.WARNING)
        try:
            tournament = tournament_simulate(
                players=options["players"],
                format=options["format"],
                rounds=(options["rounds"] or 4) if options["format"] == "swiss" else None,
                ruleset={**options["ruleset"], "game_target": options["game_target"]},
                progress=not options["no_progress"],
                top_cut=options["top_cut"],
                third_place=options["third_place"],
            )
        finally:
            celery_app.conf.task_always_eager = eager
            trace_log.setLevel(level)
        elapsed = time.monotonic() - started
        self.stdout.write(
            f"\n{tournament.name} (id {tournament.pk}): {tournament.current_round} rounds "
            f"in {elapsed:.1f}s\n"
        )
        self.stdout.write(standings_table(tournament))

    def _teams(self, options: dict[str, Any]) -> None:
        if options["teams"] < 2 or options["boards"] < 1:
            raise CommandError("a team event needs at least two teams and one board")
        eager = celery_app.conf.task_always_eager
        if not options["worker"]:
            celery_app.conf.task_always_eager = True
        started = time.monotonic()
        try:
            event = team_event_simulate(
                teams=options["teams"],
                boards=options["boards"],
                format=options["format"],
                rounds=options["rounds"] if options["format"] == "team_swiss" else None,
                ruleset={**options["ruleset"], "game_target": options["game_target"]},
                progress=not options["no_progress"],
            )
        finally:
            celery_app.conf.task_always_eager = eager
        elapsed = time.monotonic() - started
        self.stdout.write(
            f"\n{event.name} (team event {event.pk}): {event.current_round} rounds "
            f"in {elapsed:.1f}s\n"
        )
        self.stdout.write(team_standings_table(event))
