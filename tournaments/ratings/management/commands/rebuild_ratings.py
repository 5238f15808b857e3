"""Rebuild the club ratings (and season tables), then the federations' lists, from the
events alone."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from tournaments.federation.rebuild import federation_ratings_rebuild
from tournaments.ratings.rebuild import ratings_rebuild


class Command(BaseCommand):
    help = "Rebuild every club's ratings, rating history and seasons from the events alone."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--club", type=int, action="append", help="only this club (repeat)")

    def handle(self, *args: Any, **options: Any) -> None:
        done = ratings_rebuild(club_ids=options["club"])
        for club_id, periods in done.items():
            self.stdout.write(f"club {club_id}: {periods} rating periods")
        self.stdout.write(self.style.SUCCESS(f"rebuilt {len(done)} clubs"))
        if options["club"]:
            return  # one club's: its federations follow when their clubs' jobs run
        for federation_id, months in federation_ratings_rebuild().items():
            self.stdout.write(f"federation {federation_id}: {months} rating months")
