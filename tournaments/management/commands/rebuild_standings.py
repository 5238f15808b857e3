"""Rebuild every tournament table (the tournament's state fields, registrations, rounds,
pairings, standings) from the tournaments' event streams alone; report what differed."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction
from tqdm import tqdm

from tournaments.models import Tournament
from tournaments.projections import projected_rows, rows_differences, tournament_rebuild_in_tx


class Command(BaseCommand):
    help = "Rebuild every tournament's rows from its events; name each row that differed."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--tournament", type=int, help="Only this tournament id.")
        parser.add_argument("--check", action="store_true", help="Report only; change nothing.")

    def handle(self, *args: Any, **options: Any) -> None:
        tournaments = Tournament.objects.order_by("pk")
        if options["tournament"]:
            tournaments = tournaments.filter(pk=options["tournament"])
        drift = 0
        for tournament in tqdm(list(tournaments), desc="tournaments", disable=None):
            with transaction.atomic():
                before = projected_rows(tournament=tournament)
                tournament_rebuild_in_tx(tournament=tournament)
                after = projected_rows(tournament=tournament)
                differences = rows_differences(before, after)
                if options["check"]:
                    transaction.set_rollback(True)
            drift += bool(differences)
            verdict = "matches the events" if not differences else "DIFFERED from the events"
            if differences and not options["check"]:
                verdict += ": rebuilt"
            self.stdout.write(f"tournament {tournament.pk} ({tournament.name}): {verdict}")
            for line in differences:
                self.stdout.write(f"  {line}")
        self.stdout.write(f"{tournaments.count()} tournaments, {drift} with differences")
