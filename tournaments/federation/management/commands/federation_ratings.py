"""A federation's stored rating list (every club's rated matches, periods by month:
tournaments.federation.projection), as text or as CSV.

    python manage.py federation_ratings --federation "Gin Federation" [--csv]"""

from __future__ import annotations

import csv
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.federation.models import Federation
from tournaments.federation.selectors import federation_ids_of, federation_ratings


class Command(BaseCommand):
    help = "Print a federation's rating list (periods by month), as text or CSV."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--federation", required=True)
        parser.add_argument("--csv", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        federation = Federation.objects.filter(name=options["federation"]).first()
        if federation is None:
            raise CommandError(f"no federation {options['federation']!r}")
        lines = federation_ratings(federation_id=federation.pk)
        feds = federation_ids_of(player_ids=[line.player_id for line in lines])
        if options["csv"]:
            out = csv.writer(self.stdout)
            out.writerow(["rank", "player", "federation_id", "rating", "rd", "matches",
                          "periods", "provisional"])  # fmt: skip
            for x in lines:
                out.writerow([x.rank, x.player_id, feds.get(x.player_id, ""), f"{x.rating:.1f}",
                              f"{x.rd:.1f}", x.matches, x.periods, x.provisional])  # fmt: skip
            return
        for x in lines:
            mark = "?" if x.provisional else ""
            fed = feds.get(x.player_id, "")
            self.stdout.write(
                f"{x.rank:>4} {x.player_id:>6} {fed:>12} {x.rating:7.1f}{mark} ±{x.rd:.0f}"
                f" ({x.matches} matches)"
            )
